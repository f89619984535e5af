import { describe, expect, it } from 'vitest';
import { browserSkipReason, chromiumMissing, isCi } from './chromium.ts';

describe('the browser of the /docs page test', () => {
  it('is missing where no executable is, and found where one is', () => {
    expect(chromiumMissing('/nonexistent/chromium')).toContain('/nonexistent/chromium');
    expect(chromiumMissing(process.execPath)).toBeUndefined();
  });

  it('is never a reason to skip on CI', () => {
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({})).toBe(false);
    expect(browserSkipReason({ CI: 'true' })).toBeUndefined();
    expect(browserSkipReason({})).toBe(chromiumMissing());
  });
});
