/**
 * Hands bytes to the browser as a downloaded file named `name` (an export). The object URL is let
 * go a little later: revoking it at once can cancel the download.
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
