import { dynamoLoginFailures, dynamoSessions } from './adapters/dynamo-sessions';
import { createLoginLimiter } from './auth/rate-limit';
import { createSessions } from './auth/sessions';

/** The auth services wired to their DynamoDB adapters, created once per container. */
export const sessions = createSessions(dynamoSessions);
export const loginLimiter = createLoginLimiter(dynamoLoginFailures);
