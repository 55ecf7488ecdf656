import { createTestFleet, type TestFleet } from '../testing';
import { sql } from '@aplt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('tenant registry', () => {
  let fleet: TestFleet;
  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }, { id: 'acme' }]);
  });
  afterAll(() => fleet?.cleanup());

  it('lists tenants and resolves hosts case- and port-insensitively', async () => {
    expect((await fleet.registry.list()).map((t) => t.id)).toEqual(['acme', 'master']);
    expect((await fleet.registry.byHost('ACME.localhost:8080'))?.id).toBe('acme');
    expect(await fleet.registry.byHost('nobody.localhost')).toBeUndefined();
  });

  it('sees a tenant added later at once, and gives each tenant its own databases', async () => {
    const acme = (await fleet.registry.get('acme'))!;
    await fleet.registry.add({ ...acme, id: 'late', name: 'Late', hosts: ['late.localhost'] });
    expect((await fleet.registry.byHost('late.localhost'))?.name).toBe('Late');
    await fleet.registry.remove('late');

    const master = (await fleet.registry.get('master'))!;
    await sql`insert into aplt_settings (key, value) values ('only_in_acme', 'x')`.execute(
      fleet.databases.aplt(acme),
    );
    const inMaster = await sql`select 1 from aplt_settings where key = 'only_in_acme'`.execute(
      fleet.databases.aplt(master),
    );
    expect(inMaster.rows).toHaveLength(0);
  });

  it('refuses a second master tenant and invalid tenant ids', async () => {
    const acme = (await fleet.registry.get('acme'))!;
    await expect(fleet.registry.add({ ...acme, id: 'master2', kind: 'master', hosts: [] })).rejects.toThrow();
    await expect(fleet.registry.add({ ...acme, id: 'Bad-Id', hosts: [] })).rejects.toThrow();
  });
});
