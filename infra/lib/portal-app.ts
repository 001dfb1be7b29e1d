import type { App } from 'aws-cdk-lib';
import { PortalStack, type PortalStackProps } from './portal-stack';
import { moneySettingsFromContext } from './settings';

/** The stack's name in every assembly: `cdk synth`, `cdk deploy` and the local runtime's synth. */
export const PORTAL_STACK_NAME = 'ResellerPortal';

/**
 * The portal stack as the CDK app defines it from the app's contexts: the e-mail sender
 * (docs/deploy.md, "E-mail (SES)": `-c mailFrom=no-reply@example.com [-c mailIdentity=example.com]`),
 * who gets the administrators' mails (`-c adminMailTo=ops@example.com[,other@example.com]`) and the
 * money settings. infra/bin/app.ts and the local runtime's synth (infra/local/template.ts) both
 * build it here, so what runs locally is read back from the stack that deploys.
 */
export function addPortalStack(
  app: App,
  props: Pick<PortalStackProps, 'siteDist' | 'routes' | 'eventFunctions'> = {},
): PortalStack {
  const context = (key: string): unknown => app.node.tryGetContext(key);
  const mailFrom = context('mailFrom');
  const mailIdentity = context('mailIdentity');
  const adminMailTo = context('adminMailTo');
  return new PortalStack(app, PORTAL_STACK_NAME, {
    description: 'Reseller portal: member and admin apps, /api functions, one DynamoDB table',
    analyticsReporting: false,
    settings: moneySettingsFromContext(context),
    ...props,
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
}
