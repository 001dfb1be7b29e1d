import { App } from 'aws-cdk-lib';
import { addPortalChecks } from '../lib/checks';
import { PortalStack } from '../lib/portal-stack';
import { moneySettingsFromContext } from '../lib/settings';

/**
 * The CDK app: one environment-agnostic stack, so `npm run synth` needs no AWS account, and
 * cdk-nag's AwsSolutions pack, whose unacknowledged findings fail the synth.
 */
const app = new App();

/** The e-mail sender (docs/deploy.md, "E-mail (SES)"): `-c mailFrom=no-reply@example.com [-c mailIdentity=example.com]`. */
const mailFrom: unknown = app.node.tryGetContext('mailFrom');
const mailIdentity: unknown = app.node.tryGetContext('mailIdentity');
/** Who gets the administrators' mails: `-c adminMailTo=ops@example.com[,other@example.com]`. */
const adminMailTo: unknown = app.node.tryGetContext('adminMailTo');

new PortalStack(app, 'ResellerPortal', {
  description: 'Reseller portal: member and admin apps, /api functions, one DynamoDB table',
  analyticsReporting: false,
  settings: moneySettingsFromContext((key) => app.node.tryGetContext(key)),
  ...(typeof mailFrom === 'string' && mailFrom !== ''
    ? {
        mail: {
          from: mailFrom,
          ...(typeof mailIdentity === 'string' && mailIdentity ? { identity: mailIdentity } : {}),
          ...(typeof adminMailTo === 'string' && adminMailTo ? { adminsTo: adminMailTo } : {}),
        },
      }
    : {}),
});

addPortalChecks(app);
