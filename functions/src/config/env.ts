import * as z from 'zod/mini';

/**
 * The environment every function reads, parsed once at cold start. A missing or malformed
 * variable stops the function with its name, rather than failing later on a request.
 * Locally the same variables are set by infra/local; only endpoints and credentials differ.
 */
const text = (min = 1) => z.string().check(z.minLength(min));

/** Written with `zod/mini` as the API's schemas are (shared/src/api/zod.ts): only the names of failing variables are reported. */
const Env = z.object({
  TABLE_NAME: text(),
  TOKEN_ISSUER: z._default(text(), 'reseller-portal'),
  TOKEN_AUDIENCE: z._default(text(), 'reseller-portal-api'),
  /** Only set where DynamoDB is not AWS's own (DynamoDB Local). */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  AWS_REGION: z._default(text(), 'us-east-1'),
  /** The supplier CSV bucket; only the functions that read or write it get it. */
  IMPORTS_BUCKET: z.optional(text()),
  /** The hosted pictures' bucket (issue 28); only the import function gets it. Absent: pictures are not hosted. */
  IMAGES_BUCKET: z.optional(text()),
  /**
   * Origins the import may fetch pictures from although their address is private (comma-separated):
   * npm start's test image server on 127.0.0.1. Never set in AWS.
   */
  PICTURE_FETCH_ALLOWED_ORIGINS: z.optional(z.string()),
  /** The picture queue (issue 38): the import and the retry send to it, the picture function reads it. */
  PICTURE_QUEUE_URL: z.optional(z.url()),
  /** The checkout-cancel queue (issue 38): a ban or withdrawal sends to it, its function reads and continues it. */
  CHECKOUT_CANCEL_QUEUE_URL: z.optional(z.url()),
  /** The import's continuation queue: a long file's next part starts from its message (run-import.ts). */
  IMPORT_QUEUE_URL: z.optional(z.url()),
  /** Only set where SQS is not AWS's own (the local SQS, infra/local/sqs.ts). */
  SQS_ENDPOINT: z.optional(z.url()),
  /** Only set where S3 is not AWS's own (the local S3 server). */
  S3_ENDPOINT: z.optional(z.url()),
  /** Which address search /api/searchAddress uses: Amazon Location (AWS, the default) or the embedded one (npm start, tests). */
  ADDRESS_SEARCH: z._default(z.enum(['amazon-location', 'local']), 'amazon-location'),
  /** Only set where Stripe is not Stripe's own (the local emulator); absent: https://api.stripe.com. */
  STRIPE_API_URL: z.optional(z.url()),
  /** The sender of the functions that mail (a verified SES identity); set by the stack from `mailFrom`. */
  MAIL_FROM: z.optional(text(3)),
  /** Set on this machine only (infra/local, the handler tests): mail goes to files here instead of SES. */
  MAIL_OUTBOX_DIR: z.optional(text()),
});
export type Env = z.infer<typeof Env>;

/**
 * Parsed once per environment object: in Lambda that is once per container. (The local runtime
 * gives each function its own `process.env` in one process, infra/local/function-env.ts.)
 */
const cached = new WeakMap<object, Env>();

export function env(): Env {
  const source = process.env;
  const known = cached.get(source);
  if (known) return known;
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    const names = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`Environment is incomplete: set ${names}`);
  }
  cached.set(source, parsed.data);
  return parsed.data;
}

/**
 * The portal's origin for links in e-mails (SITE_URL): the CloudFront site in AWS, the local
 * server's URL under npm start. Read on each call, not with `env()`: the local server learns its
 * port only after the engines (and so the first `env()`) have started.
 */
export function siteUrl(): string {
  const value = process.env.SITE_URL;
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(value);
  if (!parsed.success) throw new Error('Environment is incomplete: set SITE_URL (the portal origin for e-mail links)');
  return parsed.data;
}
