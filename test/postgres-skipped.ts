/**
 * Global setup of the SQLite project when the PostgreSQL one cannot run: says so again after
 * the summary, where a reader of the run's end looks.
 */
export default function setup() {
  return () => {
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!!! PostgreSQL tests were SKIPPED (${process.env.SALESCRM_POSTGRES_SKIPPED}): only SQLite was tested.\n${line}\n`,
    );
  };
}
