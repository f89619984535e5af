/** The `salescrm` command (`bin/salescrm.js`, `npm start`, `npm run cli`): runs the program. */
import { runCli } from './program.ts';

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
