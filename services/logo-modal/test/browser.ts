import type { Frame, Page } from 'puppeteer-core';

export { launchChromium } from '@aplt/testing';

export const eventTypes = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { demoEvents: Array<{ type: string }> }).demoEvents.map((e) => e.type),
  );

export async function waitForEvents(page: Page, types: string[]) {
  await page.waitForFunction(
    (wanted: string[]) => {
      const got = (window as unknown as { demoEvents: Array<{ type: string }> }).demoEvents.map(
        (e) => e.type,
      );
      return wanted.every((t, i) => got[i] === t);
    },
    { timeout: 30_000 },
    types,
  );
}

/** Opens the modal from the demo shop's card and returns the modal's frame once it has mounted. */
export async function openModalFrom(page: Page, sku: string): Promise<Frame> {
  const button = await page.waitForSelector(`.card[data-sku="${sku}"] button.customize`, { timeout: 30_000 });
  await button?.click();
  const handle = await page.waitForSelector('iframe#logo-modal');
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('modal frame missing');
  await frame.waitForFunction(() => document.querySelectorAll('#technique option').length > 0, {
    timeout: 30_000,
  });
  return frame;
}

/** Uploads a logo file in the modal and waits until the modal shows it. */
export async function uploadLogo(frame: Frame, path: string) {
  const input = await frame.waitForSelector('#logo-file');
  await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(path);
  await frame.waitForFunction(
    () => !(document.getElementById('add-to-order') as HTMLButtonElement).disabled,
    { timeout: 30_000 },
  );
}
