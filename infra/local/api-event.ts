import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/**
 * Turns an HTTP request into the API Gateway (HTTP API, payload 2.0) event that Lambda
 * receives in AWS, and invokes a handler module with it: the local server and the handler
 * tests both go through here, so the handlers see the same shape everywhere.
 */
export interface HttpRequestLike {
  method: string;
  path: string;
  query?: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sourceIp: string;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded)|text\/)/i;

export function toApiEvent(request: HttpRequestLike): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(key === 'cookie' ? '; ' : ',') : value;
    // Like API Gateway, hand cookies over as a list and not as a header.
    if (key === 'cookie')
      cookies = joined
        .split(';')
        .map((c) => c.trim())
        .filter(Boolean);
    else headers[key] = joined;
  }
  const contentType = headers['content-type'] ?? '';
  const isText = request.body.length === 0 || TEXT_TYPES.test(contentType);
  const now = new Date();
  const routeKey = `${request.method} ${request.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: request.path,
    rawQueryString: request.query ?? '',
    ...(cookies ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: request.method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: isText ? request.body.toString('utf8') : request.body.toString('base64'),
    isBase64Encoded: !isText,
  };
}

/** Lambda's context for one invocation: the remaining time counts down from `timeoutMs`, as the function's timeout. */
export function lambdaContext(functionName: string, timeoutMs: number, memoryMb = 512): Context {
  const deadline = Date.now() + timeoutMs;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export type ApiHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;
