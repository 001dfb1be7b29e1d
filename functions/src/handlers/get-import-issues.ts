import { dynamoImports } from '../adapters/dynamo-imports';
import { apiHandler } from '../http/api-handler';
import { withCursor } from '../products/moderation';

export const handler = apiHandler('getImportIssues', async ({ body }) =>
  withCursor(() => dynamoImports.issues(body.id, body.cursor, 100)),
);
