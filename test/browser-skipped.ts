/**
 * Global setup of the SQLite project when no browser was found: says again after the
 * summary, where a reader of the run's end looks, that the `/docs` page test did not run.
 */
export default function setup() {
  return () => {
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!!! The /docs browser test was SKIPPED (${process.env.SALESCRM_BROWSER_SKIPPED}).\n${line}\n`,
    );
  };
}
