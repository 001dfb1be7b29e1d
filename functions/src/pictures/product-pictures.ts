import type { HostedPicture } from '@portal/shared/domain/pictures';
import { descriptionPictureAddresses, rewriteDescriptionPictures } from '@portal/shared/domain/description-pictures';
import type { PictureHost } from './host-pictures';

/** The picture fields of a product's imported values (catalogue's CsvProduct, ProductContent). */
export interface PictureFields {
  product_images: string[];
  additional_product_images: string[];
  html_description: string;
}

/** What the import stores besides: each supplier address that was hosted, and what it gave. */
export interface HostedFields {
  hosted_images: Record<string, HostedPicture>;
  html_description: string;
}

/** A picture that could not be hosted: a warning on the row, in the import report. */
export interface PictureWarning {
  column: string;
  message: string;
}

/**
 * Hosts every picture of one product (its image slots, its additional images and the `<img>` of
 * its description) and answers what to store: the hosted pictures by address, the description
 * pointing to our copies, and a warning per picture left out. A picture that fails is never a
 * failed row. `later`: some picture failed in a way another attempt may pass (a timeout, 429, 5xx).
 */
export async function hostProductPictures(
  host: PictureHost,
  fields: PictureFields,
): Promise<{ hosted: HostedFields; warnings: PictureWarning[]; later: boolean }> {
  const wanted: { address: string; column: string; where: string }[] = [
    ...fields.product_images.map((address, index) => ({
      address,
      column: `product_images_${index + 1}`,
      where: 'the product',
    })),
    ...fields.additional_product_images.map((address) => ({
      address,
      column: 'additional_product_images',
      where: 'the product',
    })),
    ...descriptionPictureAddresses(fields.html_description).map((address) => ({
      address,
      column: 'html_description',
      where: 'the description',
    })),
  ];
  const outcomes = await Promise.all(wanted.map(({ address }) => host.host(address)));
  const hostedImages: Record<string, HostedPicture> = {};
  const warnings: PictureWarning[] = [];
  let later = false;
  outcomes.forEach((outcome, index) => {
    const { address, column, where } = wanted[index]!;
    if (outcome.ok) hostedImages[address] = outcome.picture;
    else {
      warnings.push({ column, message: `The picture ${address} was left out of ${where}: ${outcome.problem}.` });
      if (outcome.retry) later = true;
    }
  });
  return {
    hosted: {
      hosted_images: hostedImages,
      html_description: rewriteDescriptionPictures(fields.html_description, (address) => hostedImages[address]),
    },
    warnings,
    later,
  };
}
