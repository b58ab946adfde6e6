import { useEffect, useState } from 'react';
import { toApiError } from '@tongdai/platform';
import type { ApiErrorBody } from '@tongdai/contracts';

/** The API's error body (Vietnamese message) for a query or mutation error. */
export function useApiError(err: unknown): ApiErrorBody | null {
  const [body, setBody] = useState<ApiErrorBody | null>(null);
  useEffect(() => {
    let live = true;
    if (!err) setBody(null);
    else void toApiError(err).then((b) => live && setBody(b));
    return () => { live = false; };
  }, [err]);
  return body;
}
