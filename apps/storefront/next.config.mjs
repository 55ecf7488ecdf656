/** @type {import('next').NextConfig} */
const nextConfig = {
  // The repository's own lint and type-check cover this app (root eslint and tsc -p apps/storefront).
  eslint: { ignoreDuringBuilds: true },
  poweredByHeader: false,
  reactStrictMode: true,
  // Server actions carry the account's uploads: a return's 3 photos of 5 MB each (spec 1) and the
  // 2 MB avatar. Next's default of 1 MB would refuse them; the proxy's storefront limit matches.
  experimental: { serverActions: { bodySizeLimit: '16mb' } },
};

export default nextConfig;
