import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  it('round-trips, hides the plaintext, and refuses another key or a tampered box', () => {
    const box = new SecretBox('one');
    const sealed = box.seal('lp_secret');
    expect(sealed).not.toContain('lp_secret');
    expect(box.open(sealed)).toBe('lp_secret');
    expect(box.seal('lp_secret')).not.toBe(sealed);
    expect(() => new SecretBox('two').open(sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
  });

  it('keeps a generated instance secret in the data directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-secret-'));
    const sealed = SecretBox.fromConfig(undefined, dir).seal('x');
    expect(SecretBox.fromConfig(undefined, dir).open(sealed)).toBe('x');
  });
});
