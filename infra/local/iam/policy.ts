import { ROOT_STACK, type LocalAssembly } from './assembly';

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */

/** The account and region every local ARN is made in (the local engines take any). */
export const LOCAL_ACCOUNT = '123456789012';
export const LOCAL_REGION = 'us-east-1';
const PARTITION = 'aws';

/** One statement of an identity policy, every value a string. */
export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** A function's role as the local IAM check holds it: its name (for AWS's words) and its statements, resolved. */
export interface FunctionPolicy {
  functionName: string;
  /** The role's logical id: what AWS names it after (`<stack>-<logical id>-<suffix>`). */
  roleName: string;
  /** The principal AWS names in a denial: the function's session of its role. */
  principalArn: string;
  statements: PolicyStatement[];
}

/**
 * The local physical names of the stack's resources: the local table's name, the buckets' names,
 * by logical id in the portal stack. A resource without one is named by its logical id.
 */
export type LocalNames = Readonly<Record<string, string>>;

/** The ARN a secret of the portal stack has locally (by its logical id): the local seams check reads against it. */
export const localSecretArn = (logicalId: string, names: LocalNames = {}): string =>
  `arn:${PARTITION}:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${names[logicalId] ?? logicalId}`;

/**
 * Every statement of a function's role, as AWS evaluates them: the role's inline policies and each
 * AWS::IAM::Policy attached to it, with Ref, Fn::GetAtt, Fn::Join, Fn::Sub and Fn::Select resolved to
 * the local ARNs (LOCAL_ACCOUNT, LOCAL_REGION, the resources' local names). A nested stack's parameter
 * is what the portal stack passes it. An intrinsic this cannot resolve is an error naming it: the
 * check never guesses a grant.
 */
export function policyFor(assembly: LocalAssembly, functionName: string, names: LocalNames = {}): FunctionPolicy {
  const made = assembly.functions[functionName];
  if (!made) {
    throw new Error(
      `The synthesized stack has no function ${functionName}: is it in functions/src/routes.ts (routes or eventFunctions)?`,
    );
  }
  const template = assembly.stacks[made.stack]!;
  const role = template.Resources[made.roleId];
  if (role?.Type !== 'AWS::IAM::Role') throw new Error(`${made.roleId} of ${functionName} is not an AWS::IAM::Role`);
  const raw: any[] = (role.Properties?.Policies ?? []).flatMap((policy: any) => policy.PolicyDocument.Statement);
  for (const resource of Object.values<any>(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const roles: unknown[] = resource.Properties.Roles ?? [];
    if (roles.some((ref: any) => ref?.Ref === made.roleId)) raw.push(...resource.Properties.PolicyDocument.Statement);
  }
  const resolve = resolver(assembly, made.stack, names);
  return {
    functionName,
    roleName: made.roleId,
    principalArn: `arn:${PARTITION}:sts::${LOCAL_ACCOUNT}:assumed-role/${made.roleId}/${functionName}`,
    statements: raw.map((statement) => resolve(statement, `the role of ${functionName}`) as PolicyStatement),
  };
}

/** The intrinsic-function resolver of one stack of the assembly. */
function resolver(assembly: LocalAssembly, stackKey: string, names: LocalNames) {
  const template = assembly.stacks[stackKey]!;
  const pseudo: Record<string, string> = {
    'AWS::AccountId': LOCAL_ACCOUNT,
    'AWS::Region': LOCAL_REGION,
    'AWS::Partition': PARTITION,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': stackKey === ROOT_STACK ? 'ResellerPortal' : `ResellerPortal-${stackKey}`,
  };
  const parent = stackKey === ROOT_STACK ? undefined : resolver(assembly, ROOT_STACK, names);
  const nameOf = (id: string) => names[id] ?? id;

  const ref = (id: string, where: string): string => {
    if (id in pseudo) return pseudo[id]!;
    if (template.Parameters && id in template.Parameters) {
      const passed = assembly.nestedParameters[stackKey]?.[id];
      if (passed === undefined || !parent) throw new Error(`${where}: the parameter ${id} of ${stackKey} has no value`);
      return parent(passed, where) as string;
    }
    const resource = template.Resources[id];
    if (!resource) throw new Error(`${where}: Ref ${id} names nothing in ${stackKey}`);
    switch (resource.Type) {
      case 'AWS::SecretsManager::Secret':
        return localSecretArn(id, names);
      case 'AWS::SQS::Queue':
        return `https://sqs.${LOCAL_REGION}.amazonaws.com/${LOCAL_ACCOUNT}/${nameOf(id)}`;
      default:
        return nameOf(id);
    }
  };

  const getAtt = (id: string, attribute: string, where: string): string => {
    const resource = template.Resources[id];
    if (!resource) throw new Error(`${where}: Fn::GetAtt ${id}.${attribute} names nothing in ${stackKey}`);
    const name = nameOf(id);
    const arn = (service: string, rest: string, region = LOCAL_REGION, account = LOCAL_ACCOUNT) =>
      `arn:${PARTITION}:${service}:${region}:${account}:${rest}`;
    if (attribute === 'Arn') {
      switch (resource.Type) {
        case 'AWS::DynamoDB::Table':
          return arn('dynamodb', `table/${name}`);
        case 'AWS::S3::Bucket':
          return `arn:${PARTITION}:s3:::${name}`;
        case 'AWS::Logs::LogGroup':
          return arn('logs', `log-group:${name}:*`);
        case 'AWS::SQS::Queue':
          return arn('sqs', name);
        case 'AWS::IAM::Role':
          return `arn:${PARTITION}:iam::${LOCAL_ACCOUNT}:role/${name}`;
        case 'AWS::Lambda::Function':
          return arn('lambda', `function:${name}`);
      }
    }
    if (attribute === 'QueueName' && resource.Type === 'AWS::SQS::Queue') return name;
    // The table's stream (decision 0481): its label is a time only AWS knows, so any of the table's streams.
    if (attribute === 'StreamArn' && resource.Type === 'AWS::DynamoDB::Table')
      return arn('dynamodb', `table/${name}/stream/*`);
    throw new Error(`${where}: the local IAM check cannot resolve Fn::GetAtt ${id}.${attribute} (${resource.Type})`);
  };

  const resolve = (value: unknown, where: string): unknown => {
    if (Array.isArray(value)) return value.map((inner) => resolve(inner, where));
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    const [key, argument] = entries[0] ?? [];
    if (entries.length === 1 && key === 'Ref') return ref(argument as string, where);
    if (entries.length === 1 && key === 'Fn::GetAtt') {
      const [id, attribute] = typeof argument === 'string' ? argument.split('.') : (argument as string[]);
      return getAtt(id!, attribute!, where);
    }
    if (entries.length === 1 && key === 'Fn::Join') {
      const [separator, parts] = argument as [string, unknown[]];
      return (resolve(parts, where) as string[]).join(separator);
    }
    if (entries.length === 1 && key === 'Fn::Select') {
      const [index, list] = argument as [unknown, unknown];
      return (resolve(list, where) as unknown[])[Number(resolve(index, where))];
    }
    if (entries.length === 1 && key === 'Fn::Split') {
      const [separator, text] = argument as [string, unknown];
      return String(resolve(text, where)).split(separator);
    }
    if (entries.length === 1 && key === 'Fn::Sub') {
      const [text, variables] = typeof argument === 'string' ? [argument, {}] : (argument as [string, object]);
      const local = resolve(variables, where) as Record<string, string>;
      return text.replace(/\$\{([^}!][^}]*)\}/g, (_match, name: string) => {
        if (name in local) return local[name]!;
        const dot = name.indexOf('.');
        return dot > 0 && !name.startsWith('AWS::')
          ? getAtt(name.slice(0, dot), name.slice(dot + 1), where)
          : ref(name, where);
      });
    }
    if (entries.length === 1 && key?.startsWith('Fn::')) {
      throw new Error(`${where}: the local IAM check cannot resolve ${key}`);
    }
    return Object.fromEntries(entries.map(([name, inner]) => [name, resolve(inner, where)]));
  };
  return resolve;
}
