import type Sharp from 'sharp';

/**
 * sharp (libvips), loaded at the first image the modal handles rather than at start-up: its
 * bindings and libvips hold about 14 MB of resident memory from the moment they load, and a
 * modal process that serves no logo needs none of it. Node keeps the module once loaded.
 */
export async function loadSharp(): Promise<typeof Sharp> {
  return (await import('sharp')).default;
}
