/** What `salescrm pull` does (`pull.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import { follow } from '../ingest/pull/follow.ts';
import { type PullProgress, type PullResult, pull, pullFailure } from '../ingest/pull/run-pull.ts';
import { knownWorkspace } from './known-workspace.ts';
import { progressReporter } from './transfer-run.ts';
import { withStore } from './with-store.ts';

export interface PullOptions {
  from: string;
  token: string;
  workspace?: string;
  pace: number;
  state: string;
  json?: boolean;
  follow?: boolean;
  listen?: { host: string; port: number };
  publicUrl?: string;
  pollSeconds: number;
  checkSeconds: number;
}

/** The summary of a pull, lines for standard error. */
export function pullSummary(r: PullResult): string[] {
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  const lines = [
    `pulled ${r.records} records into workspace ${r.workspaceId} in ${(r.ms / 1000).toFixed(1)} s${r.resumed ? ' (resumed)' : ''}: ${list(r.counts)}`,
    `requests ${r.requests}, 429 answers ${r.rateLimited}, retried ${r.retried}`,
  ];
  // What a pull never copies (docs/pull.md), named whether the source has any or not.
  const skipped = list(r.skipped);
  lines.push(
    `not carried over: ${skipped ? `${skipped}; ` : ''}custom field settings, e-mails' senders, idempotency keys and attachment lists, files' memos: no read shows them`,
  );
  for (const refused of r.refused)
    lines.push(`missing (the source refused it or does not serve it): ${refused}`);
  if (r.leftOut > 0) {
    lines.push(
      `left out ${r.leftOut} records the copy refused (changed on the source while it was read; the next pull brings them), written to ${r.leftOutPath}: ${r.leftOutReasons.join('; ')}`,
    );
  }
  return lines;
}

/**
 * `salescrm pull --from URL --token TOKEN [--workspace ID] [--follow [--listen HOST:PORT
 * [--public-url URL]] [--poll-seconds N] [--check-seconds N]] [--pace N] [--state DIR] [--json]`.
 */
export async function runPull(config: Config, values: PullOptions): Promise<number> {
  let from: URL;
  try {
    from = new URL(values.from);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') throw new TypeError();
  } catch {
    console.error(`salescrm: pull: --from is not an http(s) URL: ${values.from}`);
    return 2;
  }
  if ((values.listen || values.publicUrl !== undefined) && !values.follow) {
    console.error('salescrm: pull: --listen and --public-url go with --follow');
    return 2;
  }
  if (values.publicUrl !== undefined && !values.listen) {
    console.error('salescrm: pull: --public-url goes with --listen');
    return 2;
  }
  if (values.publicUrl !== undefined && !/^https?:\/\/[^/\s]/.test(values.publicUrl)) {
    console.error(`salescrm: pull: --public-url is not an http(s) URL: ${values.publicUrl}`);
    return 2;
  }
  if (values.token.trim() === '') {
    console.error("salescrm: pull: --token is empty: give a token of the source's workspace");
    return 2;
  }
  return withStore(
    config,
    async (store) => {
      if (values.workspace !== undefined && !(await knownWorkspace(store, values.workspace)))
        return 1;
      let progress = progressReporter('pull', values.json === true);
      const print = (result: PullResult) => {
        progress.stop();
        if (values.json) {
          console.log(
            JSON.stringify({ workspaceId: result.workspaceId, token: result.token ?? null }),
          );
        } else {
          for (const line of pullSummary(result)) console.error(line);
          console.log(`workspace: ${result.workspaceId}`);
          if (result.token) console.log(`token: ${result.token}`);
        }
      };
      const options = {
        from: values.from,
        token: values.token,
        workspaceId: values.workspace,
        stateDir: values.state,
        pace: values.pace,
        onProgress: (p: PullProgress) => progress.update(p.records, p.stepsDone, p.stepsTotal),
      };
      try {
        if (values.follow) {
          // Until SIGINT or SIGTERM: the pull under way ends first.
          const stop = new AbortController();
          const onSignal = () => stop.abort();
          process.once('SIGINT', onSignal);
          process.once('SIGTERM', onSignal);
          try {
            await follow(store, {
              ...options,
              signal: stop.signal,
              pollMs: values.pollSeconds * 1000,
              checkMs: values.checkSeconds * 1000,
              ...(values.listen ? { listen: values.listen } : {}),
              ...(values.publicUrl !== undefined ? { publicUrl: values.publicUrl } : {}),
              onPulled: (result) => {
                print(result);
                if (!values.json)
                  console.error('following the source: applying its changes as they come');
                progress = progressReporter('pull', values.json === true);
              },
              onApplied: (change) => {
                if (!values.json)
                  console.error(
                    `applied: ${change.kind} ${change.id} ${change.is} (${change.events} event${change.events === 1 ? '' : 's'})`,
                  );
              },
              onNotice: (line) => console.error(`salescrm: pull: ${line}`),
            });
          } finally {
            process.off('SIGINT', onSignal);
            process.off('SIGTERM', onSignal);
          }
        } else {
          print(await pull(store, options));
        }
      } catch (error) {
        // A bar on a terminal is closed; the plain lines have no "done" to say.
        if (process.stderr.isTTY) progress.stop();
        const failure = pullFailure(error);
        if (failure !== undefined) {
          console.error(`salescrm: pull: ${failure}`);
          console.error('salescrm: pull: run the same command again to go on from here');
          return 1;
        }
        throw error;
      }
      return 0;
    },
    { longRunning: true },
  );
}
