/**
 * The time limits of tests that wait on other processes: guards against a hang, not measures.
 * A test waits on conditions (a port that listens, a row that is there) and takes what the
 * machine needs; these limits only end a wait that would never end, so they are generous for a
 * loaded machine (two cores shared by many processes), where a step is ten times slower than on
 * a quiet one.
 */

/**
 * How long a `salescrm` command (`serve`, `dispatch`, ...) may take to start: 1–2 s on a quiet
 * machine, over 10 s on a loaded one, which compiles and loads the same modules with a share of
 * a core.
 */
export const START_MS = 60_000;
