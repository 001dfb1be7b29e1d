import { describe, expect, it } from 'vitest';
import {
  addressInUseMail,
  commissionRefundedMail,
  disputeOpenedMail,
  escapeHtml,
  mailDate,
  payoutFailedMail,
  payoutSentMail,
  receiptMail,
  saleMail,
  shippedMail,
} from './templates';
import { resetMail } from './password-reset';
import { changeMail, changedNotice, verificationMail } from './verification';

const hostile = `<img src=x onerror="alert('x')">&`;
const orderUrl = 'https://portal.example.com/track_order#AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

/** Every tag of a mail's HTML, to prove no value added one. */
const tags = (html: string) => [...html.matchAll(/<([a-z]+)[\s>]/gi)].map((match) => match[1]!.toLowerCase());

describe('escapeHtml', () => {
  it('escapes the five characters that start markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('the account mails', () => {
  it('put their links and addresses into the HTML through escapeHtml, and add no tag', () => {
    const url = `https://portal.example.com/verify?token=a&next=${hostile}`;
    const mails = [
      verificationMail('ada@example.com', url),
      resetMail('ada@example.com', url),
      changeMail('ada@example.com', `old${hostile}@example.com`, url),
      changedNotice('ada@example.com', `new${hostile}@example.com`),
    ];
    for (const mail of mails) {
      expect(new Set(tags(mail.html!))).toEqual(new Set(['html', 'body', 'p', ...(mail.link ? ['a'] : [])]));
      expect(mail.html).not.toContain('<img');
    }
    for (const mail of mails.slice(0, 3)) expect(mail.html).toContain(`href="${escapeHtml(url)}"`);
    expect(mails[2]!.html).toContain(escapeHtml(`old${hostile}@example.com`));
  });
});

describe('the receipt', () => {
  const mail = receiptMail({
    to: 'ada@example.com',
    customerName: hostile,
    orderID: 'RP-7F3K9Q2M',
    productName: `Lamp ${hostile}`,
    qty: 2,
    totalCents: 104900,
    placedAt: '2026-11-20T10:00:00.000Z',
    orderUrl,
  });

  it('says the order number, the total and the date in text and HTML, with the order page link in both', () => {
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('RP-7F3K9Q2M');
      expect(body).toContain('$1,049.00');
      expect(body).toContain('November 20, 2026');
    }
    expect(mail.text).toContain(orderUrl);
    expect(mail.html).toContain(`href="${orderUrl}"`);
    expect(mail.link).toEqual({ label: 'Order page link (receipt RP-7F3K9Q2M)', url: orderUrl });
    expect(mail.subject).toBe('Your order RP-7F3K9Q2M: thank you');
  });

  it('escapes the customer name and the product name in the HTML and keeps them as typed in the text', () => {
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;');
    expect(tags(mail.html)).not.toContain('img');
    expect(mail.text).toContain(`Hello ${hostile},`);
  });
});

describe('the shipping mail', () => {
  it('names the carrier and tracking number and links the carrier’s page for a known carrier', () => {
    const mail = shippedMail({
      to: 'ada@example.com',
      customerName: 'Ada',
      orderID: 'RP-1',
      productName: 'Lamp',
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      orderUrl,
    });
    expect(mail.text).toContain('Carrier: UPS');
    expect(mail.text).toContain('Tracking number: 1Z999AA10123456784');
    expect(mail.text).toContain('Track the parcel at UPS: https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(mail.html).toContain('href="https://www.ups.com/track?tracknum=1Z999AA10123456784"');
    expect(mail.html).toContain(`href="${orderUrl}"`);
  });

  it('shows another carrier’s number without a link, escapes the carrier’s name, and never links a script address', () => {
    const mail = shippedMail({
      to: 'ada@example.com',
      customerName: 'Ada',
      orderID: 'RP-1',
      productName: 'Lamp',
      carrier: `<b>Speedy</b>`,
      trackingNumber: 'SP 123',
      trackingUrl: 'javascript:alert(1)',
      orderUrl,
    });
    expect(mail.html).toContain('&lt;b&gt;Speedy&lt;/b&gt;');
    expect(tags(mail.html)).not.toContain('b');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).not.toContain('javascript:');
    expect(mail.text).toContain('Tracking number: SP 123');
  });

  it('says when no tracking number was given', () => {
    const mail = shippedMail({
      to: 'ada@example.com',
      customerName: '',
      orderID: 'RP-1',
      productName: 'Lamp',
      carrier: null,
      trackingNumber: null,
      trackingUrl: null,
      orderUrl,
    });
    expect(mail.text).toContain('This parcel was sent without a tracking number');
    expect(mail.text).not.toMatch(/carrier did not/i);
    expect(mail.text.startsWith('Hello,')).toBe(true);
  });
});

describe("the member's mails", () => {
  it('"you made a sale" says the commission and, before fulfilment, that it is available N days after delivery', () => {
    const mail = saleMail({
      to: 'm@example.com',
      orderID: 'RP-1',
      productName: 'Lamp',
      qty: 1,
      commissionCents: 1250,
      availableAt: null,
      holdDays: 14,
      settingsUrl: 'https://portal.example.com/my_account',
    });
    expect(mail.subject).toBe('You made a sale: $12.50 commission');
    expect(mail.text).toContain('It becomes available 14 days after the order is delivered.');
    expect(mail.html).toContain('It becomes available 14 days after the order is delivered.');
    expect(mail.text).toContain('Turn it off on My Account');
  });

  it('"you made a sale" says the date once the order is fulfilled, and "as soon as delivered" with no hold', () => {
    const base = {
      to: 'm@example.com',
      orderID: 'RP-1',
      productName: 'Lamp',
      qty: 1,
      commissionCents: 1250,
      settingsUrl: 'https://portal.example.com/my_account',
    };
    expect(saleMail({ ...base, availableAt: '2026-12-10T08:00:00.000Z', holdDays: 14 }).text).toContain(
      'It becomes available on December 10, 2026.',
    );
    expect(saleMail({ ...base, availableAt: null, holdDays: 0 }).text).toContain(
      'It becomes available as soon as the order is delivered.',
    );
    expect(saleMail({ ...base, availableAt: null, holdDays: 1 }).text).toContain('1 day after');
  });

  it('"your payout is on its way" says the amount', () => {
    const mail = payoutSentMail({
      to: 'm@example.com',
      amountCents: 99,
      orderID: 'RP-1',
      settingsUrl: 'https://portal.example.com/my_account',
    });
    expect(mail.subject).toBe('Your payout of $0.99 is on its way');
    expect(mail.html).toContain('$0.99');
  });

  it('"your payout is on its way" for a batch names the commissions and the arrival date', () => {
    const mail = payoutSentMail({
      to: 'm@example.com',
      amountCents: 2750,
      orderID: null,
      commissionCount: 2,
      arrivalDate: Date.UTC(2026, 11, 10, 0, 0, 0),
      method: 'standard',
      settingsUrl: 'https://portal.example.com/my_account',
    });
    expect(mail.subject).toBe('Your payout of $27.50 is on its way');
    expect(mail.text).toContain('We have paid $27.50 for 2 commissions out to your debit card.');
    expect(mail.text).toContain('It should reach your card by December 10, 2026.');
    expect(mail.text).not.toContain('For order');
  });
});

describe("the admins' mails", () => {
  it('"a payout failed" names the member, the amount and Stripe’s reason, escaped', () => {
    const mail = payoutFailedMail({
      to: 'admin@example.com',
      memberEmail: 'm@example.com',
      amountCents: 500,
      failure: 'The card <was> declined',
      payoutId: 'po_1',
      orderID: 'RP-1',
      adminUrl: 'https://portal.example.com/admin/payouts/to_be_payed',
    });
    expect(mail.subject).toBe('A payout failed: $5.00 to m@example.com');
    expect(mail.html).toContain('The card &lt;was&gt; declined');
    expect(mail.text).toContain("Stripe's reason: The card <was> declined");
    expect(mail.text).toContain('https://portal.example.com/admin/payouts/to_be_payed');
  });

  it('"a dispute was opened" names the amount, the reason, the order and the evidence date', () => {
    const mail = disputeOpenedMail(
      'admin@example.com',
      {
        eventId: 'evt_1',
        disputeId: 'dp_1',
        chargeId: 'ch_1',
        amountCents: 2000,
        reason: 'product_not_received',
        evidenceDueBy: Date.parse('2026-12-01T00:00:00Z') / 1000,
        orderID: 'RP-9',
      },
      'https://portal.example.com/admin/orders',
    );
    expect(mail.subject).toBe('A dispute was opened: $20.00 on order RP-9');
    expect(mail.text).toContain('Reason: the customer says the product was not received');
    expect(mail.text).toContain(
      'disputes a payment of $20.00 for order RP-9: the customer says the product was not received.',
    );
    expect(mail.text).toContain('by December 1, 2026');
    expect(mail.html).toContain('dp_1');
  });
});

describe('the notice to an address someone tried to take', () => {
  it('says nothing changed and links the login page, in text and HTML, without a link that changes anything', () => {
    const mail = addressInUseMail('owner@example.com', 'https://portal.example.com/login');
    expect(mail.subject).toBe('Someone tried to use your e-mail address on the Reseller Portal');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('nothing was changed');
      expect(body).toContain('https://portal.example.com/login');
      expect(body).not.toContain('token');
    }
    expect(mail.link).toEqual({ label: 'Log in to your account', url: 'https://portal.example.com/login' });
  });
});

describe('mailDate', () => {
  it('writes a day in UTC', () => {
    expect(mailDate('2026-01-01T23:30:00.000Z')).toBe('January 1, 2026');
  });
});

describe('the member’s "a sale you made was refunded"', () => {
  const facts = {
    to: 'member@example.com',
    orderID: 'RP-1',
    productName: 'Desk Lamp',
    refundCents: 5470,
    kind: 'refund' as const,
    inFull: true,
    originalCents: 548,
    nowCents: 0,
    commissionsUrl: 'https://portal.example.com/my_account/payout_account',
  };
  it('names the one effect on the commission that applies', () => {
    expect(commissionRefundedMail({ ...facts, status: 'reversed' }).text).toContain(
      'It had been sent to your Stripe balance but not paid out yet, so it was taken back from there.',
    );
    expect(commissionRefundedMail({ ...facts, status: 'clawed_back' }).text).toContain(
      'had already been paid to you, so $5.48 comes off your next payouts.',
    );
    const cancelled = commissionRefundedMail({ ...facts, status: 'cancelled' });
    expect(cancelled.subject).toBe('A sale you made was refunded: order RP-1');
    expect(cancelled.text).toContain('so nothing is taken from you');
    expect(cancelled.text).not.toMatch(/Stripe balance|next payouts/);
    expect(commissionRefundedMail({ ...facts, kind: 'dispute', status: 'cancelled' }).subject).toBe(
      'A sale you made was disputed: order RP-1',
    );
  });
});
