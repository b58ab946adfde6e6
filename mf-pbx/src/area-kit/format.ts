import { formatViDay } from '@tongdai/ui';

/** "22/11/2026": the day in Vietnam (list columns are narrow; the day is what people scan for). */
export const formatDate = (iso: string): string => formatViDay(iso);
