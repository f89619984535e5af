/**
 * The API's shapes as TypeBox schemas: records, envelopes, error bodies, write answers. Pure
 * (no server code at run time); the write bodies live in `write-bodies.ts`, which is not.
 */
export * from './envelopes.ts';
export * from './records.ts';
