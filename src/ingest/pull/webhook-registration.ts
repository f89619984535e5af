/**
 * `pull --follow --listen` on a salescrm source: the webhook the pull registers for its
 * receiver (`POST /v2/webhook`, docs/webhooks.md), and removes when it stops. These are the
 * only writes a pull sends its source, each on its own transport: the walk's (`source.ts`)
 * stays GET only. A source without the registration API (the live service registers webhooks
 * in its web UI) answers `unsupported`, and the receiver's URL is registered by hand.
 */
import { CrmApiError, NotFoundError } from '../../client/errors.ts';
import { Transport } from '../../client/transport.ts';
import { PullError } from './source.ts';

/** The record types and topics a pull's webhook asks for (custom objects are not pulled). */
export const FOLLOWED_OBJECT_TYPES = ['people', 'organization', 'lead', 'deal'] as const;
export const FOLLOWED_TOPICS = ['생성', '수정', '삭제', '병합'] as const;

/** Where the source is and how to reach it. */
export interface RegistrationOptions {
  from: string;
  token: string;
  fetch?: typeof fetch;
}

/** A webhook the pull registered: its id, and the secret its deliveries are signed with. */
export interface Registered {
  id: string;
  secret: string;
}

function transport(options: RegistrationOptions): Transport {
  return new Transport({
    baseUrl: options.from,
    token: options.token,
    ...(options.fetch ? { fetch: options.fetch as never } : {}),
    maxRetries: 4,
  });
}

/**
 * Registers a webhook for `url` on the source; `unsupported` when the source has no
 * registration API. A URL the source refuses (one it cannot reach, a private address) is a
 * `PullError` with the source's reason.
 */
export async function registerWebhook(
  options: RegistrationOptions,
  url: string,
): Promise<Registered | 'unsupported'> {
  try {
    const data = await transport(options).request<{ webhook?: { id?: string; secret?: string } }>(
      'POST',
      '/v2/webhook',
      {
        body: {
          url,
          objectTypeList: [...FOLLOWED_OBJECT_TYPES],
          eventList: [...FOLLOWED_TOPICS],
        },
      },
    );
    const id = data?.webhook?.id;
    const secret = data?.webhook?.secret;
    if (typeof id !== 'string' || typeof secret !== 'string')
      throw new PullError('the source registered the webhook without an id and a secret');
    return { id, secret };
  } catch (error) {
    if (error instanceof NotFoundError || (error instanceof CrmApiError && error.status === 405))
      return 'unsupported';
    if (error instanceof CrmApiError && error.status > 0 && error.status < 500)
      throw new PullError(
        `the source refused to register a webhook for ${url} (${error.status}): ${error.message.split('\n')[0]}`,
      );
    throw error;
  }
}

/** Removes the pull's webhook from the source (one already gone is fine). */
export async function removeWebhook(options: RegistrationOptions, id: string): Promise<void> {
  try {
    await transport(options).request('POST', `/v2/webhook/${id}/delete`);
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
}

/** The one line that says what to register by hand on a source without the API. */
export function registerByHand(url: string): string {
  return `register a webhook on the source by hand: URL ${url}, record types ${FOLLOWED_OBJECT_TYPES.join(', ')}, topics ${FOLLOWED_TOPICS.join(', ')}`;
}
