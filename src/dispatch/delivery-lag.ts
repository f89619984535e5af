/**
 * A delivery's lag (`salescrm_webhook_delivery_lag_seconds`, docs/operations.md): the seconds
 * from its event's time (`occurredAt`, ISO 8601) to `answeredMs` (Unix ms), 0 when the clocks
 * put the answer first; undefined when the event's time cannot be read (a row changed by
 * hand), which a histogram's sum would otherwise carry as NaN from then on.
 */
export function deliveryLagSeconds(occurredAt: string, answeredMs: number): number | undefined {
  const at = Date.parse(occurredAt);
  if (!Number.isFinite(at)) return undefined;
  return Math.max(0, answeredMs - at) / 1000;
}
