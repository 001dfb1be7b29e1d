import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { verificationMail } from '../../email/verification';
import { createSesMailer } from './ses-mailer';

/** SES cannot be reached offline: the client is mocked and the SendEmail request checked. */
const ses = mockClient(SESv2Client);
beforeEach(() => ses.reset());
afterAll(() => ses.restore());

describe('the SES mailer', () => {
  it('sends one SendEmail from MAIL_FROM to the address, with the subject, text and HTML as simple content', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const mail = verificationMail('ann@example.com', 'https://portal.example/verify_email?token=abc');
    await createSesMailer(() => 'Reseller Portal <no-reply@portal.example>').send(mail);
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      FromEmailAddress: 'Reseller Portal <no-reply@portal.example>',
      Destination: { ToAddresses: ['ann@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Verify your e-mail address for the Reseller Portal', Charset: 'UTF-8' },
          Body: {
            Text: { Data: mail.text, Charset: 'UTF-8' },
            Html: { Data: mail.html, Charset: 'UTF-8' },
          },
        },
      },
    });
    expect(mail.text).toContain('https://portal.example/verify_email?token=abc');
    expect(mail.html).toContain('href="https://portal.example/verify_email?token=abc"');
  });

  it('lets an SES refusal reach the caller (sign-up logs it; a resend is a 500 with a reference)', async () => {
    ses.on(SendEmailCommand).rejects(new Error('Email address is not verified.'));
    await expect(
      createSesMailer(() => 'no-reply@portal.example').send(verificationMail('ann@example.com', 'https://x.example/')),
    ).rejects.toThrow('Email address is not verified.');
  });
});
