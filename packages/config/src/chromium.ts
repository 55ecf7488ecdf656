/**
 * How every part of the fleet launches Debian's headless Chromium (documents' PDFs, the logo
 * modal's screenshots, browser tests): quiet, lean, never reaching the network by itself. The
 * sandbox needs user namespaces these hosts lack; /dev/shm is small in containers.
 */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
