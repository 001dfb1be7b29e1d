import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeEmulator, type Exchange, type StripeEmulator } from './index';
import { loadStripeOpenApi } from './openapi';
import { completeIndividual, customAccount, sdk } from './testing';

/**
 * Replacing a connected account's payout card, as docs.stripe.com/api/external_account_cards/delete
 * describes it: a card that is the default for the account's currency cannot be deleted; another
 * card made the default (`default_for_currency=true`) first, the old one can. Every exchange is
 * checked against Stripe's OpenAPI document.
 */
let dataDir: string;
let emulator: StripeEmulator;
let stripe: Stripe;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  dataDir = join(mkdtempSync(join(tmpdir(), 'stripe-external-')), 'data');
  emulator = await startStripeEmulator({
    dataDir,
    log: () => undefined,
    onExchange: (exchange) => void exchanges.push(exchange),
  });
  stripe = sdk(emulator.port, emulator.secretKey);
});

afterAll(async () => {
  await emulator.stop();
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
});

const token = async (number: string) =>
  (await stripe.tokens.create({ card: { number, exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' } })).id;

async function withCard(): Promise<{ account: Stripe.Account; card: Stripe.Card }> {
  const account = await stripe.accounts.create(customAccount);
  await stripe.accounts.update(account.id, completeIndividual);
  const card = (await stripe.accounts.createExternalAccount(account.id, {
    external_account: await token('4000056655665556'),
  })) as Stripe.Card;
  return { account, card };
}

const cardsOf = async (accountId: string) =>
  (await stripe.accounts.listExternalAccounts(accountId, { object: 'card' })).data as Stripe.Card[];

describe('DELETE /v1/accounts/{account}/external_accounts/{id}', () => {
  it('refuses to delete the default card of the default currency, and deletes it once another is the default', async () => {
    const { account, card } = await withCard();
    expect(card.default_for_currency).toBe(true);
    await expect(stripe.accounts.deleteExternalAccount(account.id, card.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      message: expect.stringContaining('You cannot delete the default external account for your default currency'),
    });
    expect((await cardsOf(account.id)).map((each) => each.id)).toEqual([card.id]);

    const next = (await stripe.accounts.createExternalAccount(account.id, {
      external_account: await token('5200828282828210'),
      default_for_currency: true,
    })) as Stripe.Card;
    expect(next.default_for_currency).toBe(true);
    expect((await cardsOf(account.id)).find((each) => each.id === card.id)?.default_for_currency).toBe(false);

    const deleted = await stripe.accounts.deleteExternalAccount(account.id, card.id);
    expect(deleted).toMatchObject({ id: card.id, object: 'card', deleted: true });
    expect((await cardsOf(account.id)).map((each) => [each.id, each.default_for_currency])).toEqual([[next.id, true]]);

    // Deleting it again: Stripe's 404 for an object that is gone.
    await expect(stripe.accounts.deleteExternalAccount(account.id, card.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('sends account.external_account.deleted and account.updated without the card', async () => {
    const { account, card } = await withCard();
    await stripe.accounts.createExternalAccount(account.id, {
      external_account: await token('5200828282828210'),
      default_for_currency: true,
    });
    await stripe.accounts.deleteExternalAccount(account.id, card.id);
    const deleted = await stripe.events.list(
      { type: 'account.external_account.deleted', limit: 1 },
      { stripeAccount: account.id },
    );
    expect((deleted.data[0]?.data.object as Stripe.Card).id).toBe(card.id);
    const [latest] = (await stripe.events.list({ type: 'account.updated', limit: 1 }, { stripeAccount: account.id }))
      .data;
    const cards = (latest!.data.object as Stripe.Account).external_accounts?.data.map((each) => each.id);
    expect(cards).not.toContain(card.id);
  });

  it('answered in the documented shapes', () => {
    const openApi = loadStripeOpenApi();
    const deletes = exchanges.filter((exchange) => exchange.method === 'DELETE');
    expect(deletes.length).toBeGreaterThan(0);
    const problems = exchanges.flatMap((exchange) =>
      openApi.check(exchange).map((problem) => `${exchange.method} ${exchange.path} (${exchange.status}): ${problem}`),
    );
    expect(problems).toEqual([]);
    // Reading and indexing Stripe's whole OpenAPI document takes a few seconds.
  }, 60_000);
});
