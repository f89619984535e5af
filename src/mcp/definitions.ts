import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApiCall } from './api.ts';
import { closestNames } from './field-hints.ts';
import { apiError, succeeded, toolError } from './results.ts';

/** A custom object definition, as `GET /v2/custom-object-definitions` lists it. */
export interface Definition {
  id: string;
  name: string;
}

/** The `definition` argument: a custom object definition by id or by name. */
export const definitionArg = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('custom-object: definition id or name');

/** The workspace's custom object definitions, or the tool error of their read. */
export async function listDefinitions(call: ApiCall): Promise<Definition[] | CallToolResult> {
  const res = await call('GET', '/v2/custom-object-definitions');
  if (!succeeded(res)) return apiError(res);
  return res.json.data.customObjectDefinitionList as Definition[];
}

/**
 * The definition a `definition` argument names (its id, else its exact name), or a tool
 * error that lists the workspace's definitions and the closest names.
 */
export async function definitionNamed(
  call: ApiCall,
  given: string | undefined,
): Promise<Definition | CallToolResult> {
  const definitions = await listDefinitions(call);
  if (!Array.isArray(definitions)) return definitions;
  const found =
    given === undefined
      ? undefined
      : (definitions.find((d) => d.id === given) ?? definitions.find((d) => d.name === given));
  if (found) return found;
  const names = definitions.map((d) => d.name);
  return toolError({
    status: given === undefined ? 400 : 404,
    message:
      given === undefined
        ? "custom-object needs 'definition': a custom object definition's id or name"
        : `no custom object definition has the id or name '${given}'`,
    ...(given === undefined ? {} : { closestDefinitions: closestNames(given, names) }),
    definitions,
  });
}

/** Whether a value is a tool error rather than what was asked for. */
export function isToolError(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && 'content' in value;
}
