/** @type {import('next').NextConfig} */
const nextConfig = {
  // The repository's own lint and type-check cover this app (root eslint and tsc -p apps/storefront).
  eslint: { ignoreDuringBuilds: true },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
