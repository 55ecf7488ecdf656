import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, recoveryCodeHash, RECOVERY_CODE_COUNT } from '../src';

describe('recovery codes', () => {
  it('are 8 distinct xxxxx-xxxxx codes over the whole unambiguous alphabet', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    // Every letter turns up over enough codes: nothing of the alphabet is cut off.
    const seen = new Set(newRecoveryCodes(400).join('').replace(/-/g, ''));
    expect(seen.size).toBe(31);
  });

  it('hash the code as shown, whatever case, spaces or dash it is typed back with', () => {
    const shown = 'abcde-fgh23';
    // The customers' stored hashes were taken over the shown form: they keep matching.
    const stored = createHash('sha256').update(shown).digest('hex');
    for (const typed of [shown, 'ABCDE-FGH23', ' abcde fgh23 ', 'abcdefgh23', 'abc de-fgh 23'])
      expect(recoveryCodeHash(typed), typed).toBe(stored);
    expect(recoveryCodeHash('abcde-fgh24')).not.toBe(stored);
  });
});
