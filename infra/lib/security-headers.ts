/**
 * The portal's security headers, defined once: the CDK stack turns them into the CloudFront
 * response headers policy (every behaviour: both apps and /api/*), and the local server
 * (infra/local/server.ts) sends the very same headers. No aws-cdk-lib import here, so the local
 * runtime can load it.
 */

/**
 * What Stripe.js and its Elements (the card field of /my_account/payout_methods with a real
 * publishable key) load, frame and call, after Stripe's published CSP guidance: the script and
 * its iframes from js.stripe.com (and its subdomains), 3-D Secure pages from hooks.stripe.com,
 * the fraud-signals frame and beacon on m.stripe.network, and the API at api.stripe.com.
 */
export const STRIPE_ELEMENTS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://m.stripe.network'],
  connect: ['https://api.stripe.com', 'https://m.stripe.network'],
} as const;

/**
 * Content-Security-Policy of the two apps: own origin only, plus Stripe.js (script, its iframes
 * and API), product images from any https host (supplier image URLs come from the CSV), and the
 * given upload origins (the admin app POSTs large CSVs straight to S3 with a presigned form).
 */
export function contentSecurityPolicy(uploadOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...STRIPE_ELEMENTS.script].join(' '),
    ["frame-src 'self'", ...STRIPE_ELEMENTS.frame].join(' '),
    ["connect-src 'self'", ...STRIPE_ELEMENTS.connect, ...uploadOrigins].join(' '),
    "img-src 'self' data: https:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The settings of each header, in the terms of CloudFront's SecurityHeadersConfig. */
export const securityHeaderSettings = {
  strictTransportSecurity: { maxAgeSeconds: 365 * 24 * 60 * 60, includeSubdomains: true },
  contentTypeOptions: 'nosniff',
  frameOption: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  /**
   * `X-XSS-Protection: 0`: the browsers' XSS auditor is gone (Chrome 78, Edge 79) or never was
   * (Firefox), and where it lingers `1; mode=block` could be abused to leak or blank a page; OWASP
   * and MDN advise `0`, with the Content-Security-Policy doing the protecting.
   */
  xssProtection: { protection: false },
} as const;

/**
 * The headers as they reach the browser (lower-case names), exactly as CloudFront writes them
 * from the policy: the test of the stack compares the synthesized policy with this, the test of
 * the local server its answers.
 */
export function securityHeaders(uploadOrigins: readonly string[]): Record<string, string> {
  const { strictTransportSecurity, contentTypeOptions, frameOption, referrerPolicy, xssProtection } =
    securityHeaderSettings;
  return {
    'content-security-policy': contentSecurityPolicy(uploadOrigins),
    'strict-transport-security': `max-age=${strictTransportSecurity.maxAgeSeconds}${strictTransportSecurity.includeSubdomains ? '; includeSubDomains' : ''}`,
    'x-content-type-options': contentTypeOptions,
    'x-frame-options': frameOption,
    'referrer-policy': referrerPolicy,
    'x-xss-protection': xssProtection.protection ? '1' : '0',
  };
}
