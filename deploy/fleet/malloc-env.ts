/**
 * glibc's malloc settings for every service process: the fleet runner's children, the compose
 * image (its Dockerfile ENV must match; deploy/test checks it) and the benchmarks that measure a
 * service as the start command runs it.
 *
 * - `arena_max=2`: glibc otherwise gives each allocating thread (libuv's pool, V8's workers) an
 *   arena of its own, up to eight per core, and keeps what each freed.
 * - `mmap_threshold=32768`, `trim_threshold=65536`: V8 parses and compiles a service's code at
 *   start-up in zones of 8-32 KiB segments from malloc (about 40 MB at the peak). With glibc's
 *   defaults, which raise both thresholds each time the process frees a large block, the freed
 *   segments stay resident in the arenas for the life of the process: 7-15 MB of an idle service,
 *   a different amount after every start. From 32 KiB a block is mapped on its own and handed back
 *   when freed, and the heap's free top goes back beyond 64 KiB.
 */
export const SERVICE_GLIBC_TUNABLES =
  'glibc.malloc.mmap_threshold=32768:glibc.malloc.trim_threshold=65536:glibc.malloc.arena_max=2';

/** glibc's own behaviour (eight arenas per core, thresholds that grow): the start bench's baseline. */
export const defaultGlibcTunables = (cores: number) => `glibc.malloc.arena_max=${8 * cores}`;

export const serviceMallocEnv = { GLIBC_TUNABLES: SERVICE_GLIBC_TUNABLES } as const;
