/**
 * Request validation with FastAPI's face: a failed schema becomes
 * 400 INVALID_ARGUMENT with `details.validation_errors = [{loc, message, type}]`
 * and the message `Invalid request parameters: <loc>: <msg>` (contract §1.4).
 * Never 422, never a raw `{"detail": ...}`.
 *
 * Schemas are zod (test code may load it). `z.strictObject` stands for a
 * pydantic `extra="forbid"` model; `z.object` (which drops unknown keys)
 * stands for a model that ignores them.
 *
 * @module
 */
import type { ZodType, core } from 'zod';
import { invalidArgument, type OvError } from './errors.js';

export interface ValidationIssue {
  loc: Array<string | number>;
  message: string;
  type: string;
}

/** Builds the 400 for a list of issues. */
export function validationError(issues: ValidationIssue[]): OvError {
  const summary = issues.map((issue) => `${issue.loc.join('.')}: ${issue.message}`).join('; ');
  return invalidArgument(`Invalid request parameters: ${summary}`, { validation_errors: issues }).asResponse();
}

/** One issue, at `loc` under the body. */
export function bodyIssue(loc: Array<string | number>, message: string, type = 'value_error'): ValidationIssue {
  return { loc: ['body', ...loc], message, type };
}

/** Parses `input` or throws the FastAPI-shaped 400. `where` is the loc root (`body`, `query`). */
export function parseOrThrow<T>(schema: ZodType<T>, input: unknown, where: 'body' | 'query' = 'body'): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw validationError(parsed.error.issues.flatMap((issue) => toIssues(issue, where, input)));
}

function toIssues(issue: core.$ZodIssue, where: string, input: unknown): ValidationIssue[] {
  const loc = [where, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      loc: [...loc, key],
      message: 'Extra inputs are not permitted',
      type: 'extra_forbidden',
    }));
  }
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
    return [{ loc, message: 'Field required', type: 'missing' }];
  }
  return [{ loc, message: issue.message, type: pydanticType(issue) }];
}

function pydanticType(issue: core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `${issue.expected}_type`;
    case 'too_big':
      return issue.origin === 'array' ? 'too_long' : 'less_than_equal';
    case 'too_small':
      return issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
    case 'invalid_value':
      return 'literal_error';
    default:
      return 'value_error';
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
