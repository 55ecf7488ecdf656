import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs } from '@aplt/config';
import puppeteer, { type Browser } from 'puppeteer-core';

/** Debian's Chromium with a fresh profile, no network side traffic. */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    userDataDir: profile,
    args: [...chromiumArgs],
    // One DevTools command (a click, a key, an evaluate) that never returns fails after this, under
    // the 90 s waits below and well inside the 240 s of a multi-step test, naming the call that hung
    // instead of ending as a bare test timeout (puppeteer's own default is 180 s).
    protocolTimeout: 100_000,
  });
  // Every page, popups included, may wait long: under a full parallel test run on two cores a
  // renderer can be starved for longer than puppeteer's 30 s default.
  browser.on('targetcreated', (target) => {
    void target.page().then((page) => page?.setDefaultTimeout(90_000));
  });
  return {
    browser,
    async close() {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
