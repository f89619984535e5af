import { accessSync, constants } from 'node:fs';

/**
 * The headless browser of the `/docs` page test: Debian's `chromium` package (`.ci/run`
 * installs it), or the executable `CHROMIUM_PATH` names.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser cannot be launched here, or undefined when its executable is there. */
export function chromiumMissing(path: string = CHROMIUM_PATH): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch {
    return `no executable browser at ${path} (apt-get install chromium, or set CHROMIUM_PATH)`;
  }
}

/** A CI run (`CI` set to anything but `0` or `false`): a missing browser fails the test there. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** The reason the browser test is skipped, or undefined when it runs (always on CI). */
export function browserSkipReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return isCi(env) ? undefined : chromiumMissing();
}
