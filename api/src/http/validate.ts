import type { FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ERROR_MESSAGES, MSG, type FieldError } from '@tongdai/contracts';
import { AppError } from './errors';

type Source = 'body' | 'query' | 'params';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySchema = v.GenericSchema<any, any>;

/** Field errors of a failed parse: the first message per field, with the schema's own text. */
export function fieldErrors(issues: v.BaseIssue<unknown>[]): FieldError[] {
  const seen = new Map<string, string>();
  for (const issue of issues) {
    const field = v.getDotPath(issue) ?? '';
    // A key left out of the body is reported by the object, not the field: it is "required".
    const missingKey = issue.type === 'object' && issue.input === undefined && field !== '';
    if (!seen.has(field)) seen.set(field, missingKey ? MSG.required : issue.message);
  }
  return [...seen].map(([field, message]) => ({ field, message }));
}

/** Parses `source` of the request with a contracts schema and replaces it with the output. */
export function parseOrThrow<S extends AnySchema>(schema: S, input: unknown): v.InferOutput<S> {
  // `message` only fills in where a schema has no text of its own (valibot's English default).
  // No body at all reads as {}; a JSON `null` is not "no body" (read as {}, it made a time range that matches always: issue 12 §6).
  const result = v.safeParse(schema, input === undefined ? {} : input, { message: ERROR_MESSAGES.VALIDATION_FAILED });
  if (!result.success) throw new AppError('VALIDATION_FAILED', fieldErrors(result.issues));
  return result.output;
}

/** preHandler: validate body, query or params with a valibot schema. */
export function validate(schemas: Partial<Record<Source, AnySchema>>) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    for (const source of Object.keys(schemas) as Source[]) {
      const parsed = parseOrThrow(schemas[source]!, request[source]);
      (request as unknown as Record<Source, unknown>)[source] = parsed;
    }
  };
}

/**
 * preHandler for a report's filters (?from=&to=&…): like validate({ query }), and the 400's
 * message is the first wrong filter's own Vietnamese words, which the report screens show as is.
 */
export function validateFilters(schema: AnySchema) {
  return async (request: FastifyRequest) => {
    const result = v.safeParse(schema, request.query ?? {});
    if (result.success) {
      request.query = result.output;
      return;
    }
    const details = fieldErrors(result.issues);
    const err = new AppError('VALIDATION_FAILED', details);
    err.message = details[0]?.message ?? err.message;
    throw err;
  };
}
