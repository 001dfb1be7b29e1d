import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { isbot } from 'isbot';
import type { CountVisitResponse } from '@portal/shared/api/visits';
import type { ProductRepository } from '../products/product-store';
import { shareable } from '../orders/shared-product';
import type { VisitStore } from './visit-store';
import { DAY_MS, dayOf, hourOf, statsExpiry } from './days';

/**
 * Counting a share page's visit (issue 39, docs/link-statistics.md). No cookie and nothing personal
 * is stored: the visitor is an HMAC of their address and user agent under the day's random salt
 * (kept in the table, gone the day after), with the link and the hour, so the same visitor on the
 * same link counts once an hour and no stored value leads back to them once the salt is gone.
 */

export interface CountDeps {
  store: Pick<VisitStore, 'saltOf' | 'memberOfShareCode' | 'putVisit' | 'add'>;
  /** The product the share page shows: a visit of one it would not show counts nothing. */
  products: Pick<ProductRepository, 'get'>;
  /** Epoch ms. */
  now: () => number;
}

export interface VisitAsk {
  productId: string;
  ref: string | undefined;
  sourceIp: string;
  userAgent: string;
}

/** A visit item's life: the checkout can name it for as long as an open intent lives (30 days). */
export const VISIT_DAYS = 30;

/**
 * Bots and link previews (Slack, WhatsApp, iMessage's, Facebook's, X's, Discord's, headless
 * browsers, monitors) by the `isbot` package's maintained list of user-agent patterns; an empty user
 * agent is no browser either.
 */
export const isBotAgent = (userAgent: string): boolean => userAgent.trim() === '' || isbot(userAgent);

/**
 * The visitor's address: behind CloudFront the `CloudFront-Viewer-Address` header CloudFront adds
 * (`198.51.100.10:46532`, `2001:db8::1:46532`: the address, a colon, the viewer's port), else the
 * request's source address (locally, or a request that did not come through CloudFront). Used
 * only to tell visitors apart in the visit's hash: a forged header can make a visit look like
 * another visitor's, as a changed user agent can, never touch anything else (login limits keep
 * the source address).
 */
export function visitorAddress(viewerAddress: string | undefined, sourceIp: string): string {
  const value = viewerAddress?.trim() ?? '';
  const colon = value.lastIndexOf(':');
  const address = colon > 0 ? value.slice(0, colon) : '';
  return isIP(address) ? address : sourceIp;
}

/** One salt per UTC day per container, read or made once. */
const salts = new Map<string, Promise<Buffer>>();

function saltOf(deps: CountDeps, day: string, nowMs: number): Promise<Buffer> {
  let salt = salts.get(day);
  if (!salt) {
    // Kept until the end of the next day (a visit at 23:59 is still deduplicated at 00:30 by its hour's key).
    const dayStart = Date.parse(`${day}T00:00:00Z`);
    const expiresAt = Math.floor((dayStart + 2 * DAY_MS) / 1000);
    salt = deps.store.saltOf(day, randomBytes(32), expiresAt);
    salt.catch(() => salts.delete(day));
    salts.set(day, salt);
    for (const old of salts.keys()) if (old < dayOf(nowMs - DAY_MS)) salts.delete(old);
  }
  return salt;
}

/**
 * The visit's id: the visitor (address and user agent), the link (product, share code) and the hour
 * under the day's salt. Nothing of it is stored but this hash.
 */
export function visitIdOf(salt: Buffer, ask: VisitAsk, hour: string): string {
  return createHmac('sha256', salt)
    .update([ask.sourceIp, ask.userAgent, ask.productId, ask.ref ?? '', hour].join('\n'))
    .digest('hex')
    .slice(0, 32);
}

/**
 * Counts the visit unless it is a bot's or this visitor's second on this link this hour, or of a
 * product the share page would not show (its 404, nothing written): the visit
 * item is put on the condition that it is not there (the reservation), then the day's counts are
 * ADDed to one shard of each series. A crash between the two loses that one visit's count, never
 * counts one twice.
 */
export async function countVisit(deps: CountDeps, ask: VisitAsk): Promise<CountVisitResponse> {
  if (isBotAgent(ask.userAgent)) {
    // A bot is answered as a browser is: the share page's 404 for a product it would not show.
    shareable(await deps.products.get(ask.productId));
    return { visitId: null, counted: false };
  }
  const nowMs = deps.now();
  const day = dayOf(nowMs);
  const hour = hourOf(nowMs);
  const ref = ask.ref?.trim().toUpperCase();
  // The product as the share page reads it (unknown, banned, withdrawn: its 404, nothing written).
  const [product, salt, memberId] = await Promise.all([
    deps.products.get(ask.productId),
    saltOf(deps, day, nowMs),
    ref ? deps.store.memberOfShareCode(ref) : Promise.resolve(undefined),
  ]);
  shareable(product);
  const visitId = visitIdOf(salt, { ...ask, ref }, hour);
  const isNew = await deps.store.putVisit({
    visitId,
    productId: ask.productId,
    memberId: memberId ?? null,
    hour,
    expiresAt: Math.floor(nowMs / 1000) + VISIT_DAYS * 24 * 3600,
  });
  if (isNew) {
    await deps.store.add(
      { day, productId: ask.productId, memberId: memberId ?? null },
      { visits: 1 },
      statsExpiry(nowMs),
    );
  }
  return { visitId, counted: isNew };
}
