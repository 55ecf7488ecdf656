import type { AccessDatabase, KyselyPlugin, QueryResult, UnknownRow } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Whitelist } from '../src/forward-auth/whitelist';

/**
 * Holds the real database's answers back while shut: `shut()` resolves once a query has been
 * read (its rows are here), and its caller sees them only after `open()`.
 */
function gate(): KyselyPlugin & { shut(): Promise<void>; open(): void } {
  let held: Promise<void> | null = null;
  let release = () => {};
  let arrived = () => {};
  return {
    transformQuery: (args) => args.node,
    async transformResult(args): Promise<QueryResult<UnknownRow>> {
      arrived();
      await held;
      return args.result;
    },
    shut() {
      held = new Promise((resolve) => (release = resolve));
      return new Promise((resolve) => (arrived = resolve));
    },
    open() {
      held = null;
      release();
    },
  };
}

/**
 * A whitelist change announced while this replica is reloading (its query has read the list as it
 * was) must not be lost until the cache's TTL (before the fix it was, for 600 s in the fleet): that
 * reload does not count as the one the change asked for.
 */
describe('whitelist reload in one replica', () => {
  let db: TestPgDatabase<AccessDatabase>;
  beforeAll(async () => {
    db = await createTestPgDatabase('access', 'whitelist');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('takes a change announced during a reload at the next check, not after the TTL', async () => {
    const answers = gate();
    const whitelist = new Whitelist(db.db.withPlugin(answers), [], 600_000);
    const ip = '192.0.2.7';
    expect(await whitelist.allows(ip)).toBe(false);
    for (const [change, allowed] of [
      ['added', true],
      ['removed', false],
    ] as const) {
      // A check starts a reload, which reads the table before another replica changes it; the
      // change's announcement arrives here before that reload's rows do.
      whitelist.reloadSoon();
      const read = answers.shut();
      const check = whitelist.allows(ip);
      await read;
      if (allowed)
        await db.db
          .insertInto('access_ip_whitelist')
          .values({ cidr: '192.0.2.7/32', note: 'test' })
          .execute();
      else await db.db.deleteFrom('access_ip_whitelist').execute();
      whitelist.reloadSoon();
      answers.open();
      // The check under way ends on a reload that began after the announcement.
      expect(await check, `the check under way when it was ${change}`).toBe(allowed);
      expect(await whitelist.allows(ip), change).toBe(allowed);
      expect(whitelist.allowsNow(ip), change).toBe(allowed);
    }
  });
});
