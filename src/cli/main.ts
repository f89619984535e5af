/** The `salescrm` command (`bin/salescrm.js`, `npm start`, `npm run cli`): runs the program. */
import { watchStdout } from './closed-stdout.ts';
import { runCli } from './program.ts';

watchStdout();

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
