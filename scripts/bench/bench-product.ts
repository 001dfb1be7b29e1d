/**
 * The product content both list benches seed (catalogue: the product lists; sales: the products
 * the sales name): product i, with a realistic name and description and a fixed content hash.
 */
export function benchProductContent(i: number) {
  return {
    spu_no: `BENCH-${i}`,
    product_name: `Bench product ${i} with a realistic, fairly long name`,
    brand: 'Benchmark Co.',
    msrp_us_cents: 2999,
    dropshipping_price_us_cents: 1495,
    product_images: [`https://img.bench.test/${i}/1.jpg`, `https://img.bench.test/${i}/2.jpg`],
    additional_product_images: [] as string[],
    html_description: `<p>${'A realistic description sentence. '.repeat(14)}</p>`,
    url: `https://supplier.bench.test/${i}`,
    content_hash: i.toString(16).padStart(64, '0'),
  };
}
