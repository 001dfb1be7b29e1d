import { countVisit } from '@portal/shared/api/calls/count-visit';
import { publicApiHandler, visitCounting } from '../composition';
import { countVisit as count, visitorAddress } from '../visits/count-visit';

/**
 * Public: the share page counts its visit once it opens (docs/link-statistics.md). The address
 * (CloudFront's `CloudFront-Viewer-Address` when present, else the source address) and the user
 * agent are hashed under the day's salt and never stored or logged; bots are not counted.
 */
export const handler = publicApiHandler(countVisit, async ({ body, event, sourceIp }) =>
  count(visitCounting, {
    productId: body.id,
    ref: body.ref,
    sourceIp: visitorAddress(event.headers['cloudfront-viewer-address'], sourceIp),
    userAgent: event.headers['user-agent'] ?? event.requestContext?.http?.userAgent ?? '',
  }),
);
