import { CustomerInputSchema, ERROR_MESSAGES, MSG } from '@tongdai/contracts';
import { AppError, isForeignKeyViolation, toErrorBody } from './errors';
import { parseOrThrow } from './validate';

describe('toErrorBody', () => {
  it('keeps code, status and Vietnamese message of an AppError', () => {
    expect(toErrorBody(new AppError('FORBIDDEN'))).toEqual({ status: 403, code: 'FORBIDDEN', message: ERROR_MESSAGES.FORBIDDEN });
    expect(toErrorBody(new AppError('UNAUTHORIZED_TENANT')).status).toBe(401);
  });
  it('maps framework 4xx errors by status', () => {
    expect(toErrorBody(Object.assign(new Error('Unexpected token'), { statusCode: 400 })).code).toBe('VALIDATION_FAILED');
    expect(toErrorBody(Object.assign(new Error('x'), { statusCode: 415 })).code).toBe('VALIDATION_FAILED');
    expect(toErrorBody(Object.assign(new Error('x'), { statusCode: 429 })).code).toBe('TOO_MANY_ATTEMPTS');
  });
  it('hides everything about a crash behind the generic message', () => {
    const body = toErrorBody(new Error('relation "secret" does not exist'));
    expect(body).toEqual({ status: 500, code: 'INTERNAL_ERROR', message: MSG.generic });
  });
});

describe('isForeignKeyViolation', () => {
  it('knows a refused reference on both engines: 23503, and 23001 (ON DELETE RESTRICT in PGlite), nothing else', () => {
    expect(['23503', '23001', '23505', '23502', undefined].map((code) => isForeignKeyViolation({ code }))).toEqual([true, true, false, false, false]);
    expect(isForeignKeyViolation(null)).toBe(false);
  });
});

describe('parseOrThrow', () => {
  const details = (input: unknown) => {
    try {
      parseOrThrow(CustomerInputSchema, input);
      return null;
    } catch (err) {
      return (err as AppError).toBody().details;
    }
  };
  it('reports each field with the schema message', () => {
    expect(details({ name: ' ', phone: '12ab', status: 'new' })).toEqual([
      { field: 'name', message: MSG.required },
      { field: 'phone', message: MSG.phoneFormat },
    ]);
  });
  it('reports a missing key as required and a non-object body without English', () => {
    expect(details({})).toEqual([
      { field: 'name', message: MSG.required },
      { field: 'phone', message: MSG.required },
      { field: 'status', message: MSG.required },
    ]);
    expect(details('text')).toEqual([{ field: '', message: ERROR_MESSAGES.VALIDATION_FAILED }]);
  });
});

describe('toErrorBody of PostgreSQL refusing a value (issue 12 §4)', () => {
  it('answers 400 for class 22 data exceptions and 54000, 500 for the rest', () => {
    for (const code of ['22P05', '22021', '22003', '22P02', '54000']) {
      expect(toErrorBody(Object.assign(new Error('invalid input'), { code, severity: 'ERROR' }))).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: ERROR_MESSAGES.VALIDATION_FAILED });
    }
    expect(toErrorBody(Object.assign(new Error('deadlock'), { code: '40P01' })).status).toBe(500);
    expect(toErrorBody(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' })).status).toBe(500);
  });
});
