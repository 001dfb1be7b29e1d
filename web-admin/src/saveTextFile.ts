/*
 * A module of its own so that the screens that save a CSV (Product Import's rejected rows, the
 * sales lists' exports) share it without one screen's chunk loading the other's code and styles.
 */

/** Saves a text as a file through a temporary object URL and link. */
export function saveTextFile(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // A byte-order mark so that spreadsheet programs read the file as UTF-8.
  const blob = new Blob([text.startsWith('\uFEFF') ? text : `\uFEFF${text}`], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
