import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../../email/mailer';

/**
 * Mail in AWS: Amazon SES v2 SendEmail with simple content (text and HTML), from MAIL_FROM, a
 * verified SES identity (docs/deploy.md: "E-mail (SES)"). The function's role may `ses:SendEmail` on
 * that identity only. The client comes from the Lambda runtime's SDK (`@aws-sdk/*` is external),
 * and only the functions that send mail reach this module.
 */
let client: SESv2Client | undefined;
const ses = () => (client ??= new SESv2Client({}));

export function createSesMailer(from: () => string): Mailer {
  return {
    async send(mail) {
      await ses().send(
        new SendEmailCommand({
          FromEmailAddress: from(),
          Destination: { ToAddresses: [mail.to] },
          Content: {
            Simple: {
              Subject: { Data: mail.subject, Charset: 'UTF-8' },
              Body: {
                Text: { Data: mail.text, Charset: 'UTF-8' },
                Html: { Data: mail.html, Charset: 'UTF-8' },
              },
            },
          },
        }),
      );
    },
  };
}
