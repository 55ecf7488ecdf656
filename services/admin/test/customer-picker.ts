import type { Page } from 'puppeteer-core';

/**
 * Chooses `name` in the server-searched customer picker. The server's answer to an earlier prefix
 * ('Bak' before 'Bakker') can re-render the list while the option is clicked, so the click lands
 * on a replaced element and the field stays empty: search and pick again until the field keeps it.
 */
export async function pickCustomer(
  page: Page,
  steps: { search: () => Promise<void>; pick: () => Promise<void> },
  name: string,
  attempts = 3,
): Promise<void> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await steps.search();
    // The click itself can throw when the option is replaced under it ("Node is detached").
    const picked = await steps.pick().then(
      () => true,
      () => false,
    );
    const kept =
      picked &&
      (await page
        .waitForFunction(
          (want: string) =>
            (
              document.querySelector('[data-testid="customer-picker"] input') as HTMLInputElement | null
            )?.value.includes(want),
          { timeout: 5_000 },
          name,
        )
        .then(
          () => true,
          () => false,
        ));
    if (kept) return;
  }
  throw new Error(`the customer picker never kept ${name} (${attempts} attempts)`);
}
