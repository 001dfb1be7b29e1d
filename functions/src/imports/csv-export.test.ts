import { describe, expect, it } from 'vitest';
import { escapeCell, toCsv } from './csv-export';

describe('CSV export', () => {
  it.each(['=1+2', '+1', '-2', '@SUM(A1)', '\tx', '\rx'])('escapes %j against formula injection', (value) => {
    expect(escapeCell(value)).toBe(`"'${value}"`);
  });

  it('quotes every cell and doubles quotes', () => {
    expect(escapeCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(escapeCell(7)).toBe('"7"');
    expect(escapeCell(null)).toBe('""');
  });

  it('joins rows with CRLF, header first', () => {
    expect(toCsv(['a', 'b'], [[1, '=x']])).toBe('"a","b"\r\n"1","\'=x"\r\n');
  });
});
