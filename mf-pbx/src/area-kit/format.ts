const date = new Intl.DateTimeFormat('vi-VN', { day: '2-digit', month: '2-digit', year: 'numeric' });

/** "22/11/2026" in the browser's time zone (list columns are narrow; the day is what people scan for). */
export const formatDate = (iso: string): string => date.format(new Date(iso));
