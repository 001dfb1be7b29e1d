import { describe, expect, it } from 'vitest';
import { parsePictureWorks, WORKS_PER_MESSAGE, type PictureWork } from './picture-work';

const work = (n: number): PictureWork => ({
  jobId: 'a'.repeat(32),
  productId: `product-${n}`,
  version: `version-${n}`,
  pictures: 5,
  row: n + 2,
});

describe('a picture message', () => {
  it('holds up to 10 product versions, in order', () => {
    const works = Array.from({ length: WORKS_PER_MESSAGE }, (_, n) => work(n));
    expect(parsePictureWorks(JSON.stringify(works))).toEqual(works);
  });

  it('may hold one product version alone, as messages were first sent', () => {
    expect(parsePictureWorks(JSON.stringify(work(1)))).toEqual([work(1)]);
  });

  it('is refused as a whole (a poison message) when empty, too long, or when one of its works is not one', () => {
    expect(() => parsePictureWorks('[]')).toThrow(/not 1 to 10/);
    const eleven = Array.from({ length: WORKS_PER_MESSAGE + 1 }, (_, n) => work(n));
    expect(() => parsePictureWorks(JSON.stringify(eleven))).toThrow(/11 product versions/);
    expect(() => parsePictureWorks(JSON.stringify([work(1), { ...work(2), row: 0 }]))).toThrow(
      /not a product version of an import/,
    );
    expect(() => parsePictureWorks('{"not":"picture work"}')).toThrow(/not a product version/);
    expect(() => parsePictureWorks('not json')).toThrow(/not JSON/);
  });

  it('keeps only the fields of a work', () => {
    expect(parsePictureWorks(JSON.stringify([{ ...work(1), extra: 'x' }]))).toEqual([work(1)]);
  });
});
