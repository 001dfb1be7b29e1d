import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ResponseOf } from '@portal/shared/api/contract';
import type {
  ChangeGroupRequest,
  ChangeRuleRequest,
  MemberGroup,
  Rule,
  RuleInput,
} from '@portal/shared/api/commission-rules';
import { formatDate } from '@portal/shared/domain/format';
import { queryKeys } from '@portal/shared/query/keys';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import './rules.css';

type Programme = ResponseOf<'getCommissionRules'>;
type Preview = ResponseOf<'previewCommissionRule'>;
type Scope = RuleInput['scope'];

const SCOPES: { value: Scope; label: string }[] = [
  { value: 'product', label: 'A product' },
  { value: 'brand', label: 'A brand' },
  { value: 'group', label: 'A member group' },
];

interface Draft {
  /** The rule changed, or null for a new one. */
  id: string | null;
  scope: Scope;
  value: string;
  kind: 'percent' | 'fixed';
  amount: string;
  min: string;
  max: string;
}

const EMPTY: Draft = { id: null, scope: 'brand', value: '', kind: 'percent', amount: '', min: '', max: '' };

const draftOf = (rule: Rule): Draft => ({
  id: rule.id,
  scope: rule.scope,
  value: rule.value,
  kind: rule.rate.kind,
  amount: rule.rate.kind === 'percent' ? rule.rate.percent : rule.rate.amount,
  min: rule.min ?? '',
  max: rule.max ?? '',
});

const requestOf = (draft: Draft, version: number): ChangeRuleRequest => {
  const rule: ChangeRuleRequest & { action: 'create' } = {
    action: 'create',
    version,
    rule: {
      scope: draft.scope,
      value: draft.scope === 'default' ? '' : draft.value,
      rate:
        draft.kind === 'percent' ? { kind: 'percent', percent: draft.amount } : { kind: 'fixed', amount: draft.amount },
      ...(draft.min.trim() ? { min: draft.min } : {}),
      ...(draft.max.trim() ? { max: draft.max } : {}),
    },
  };
  return draft.id ? { ...rule, action: 'update', id: draft.id } : rule;
};

/**
 * '/admin/rules': the commission rules (issue 39; docs/programme.md). Each rule is for a product, a
 * brand or a member group (the default for everyone else); a change is previewed before it is
 * saved (how many products and members change, and an example), and every change is in the log.
 */
export function CommissionRulesScreen() {
  const { call } = useAuth();
  const programme = useQuery({
    queryKey: queryKeys.commissionRules.programme(),
    queryFn: ({ signal }) => call('getCommissionRules', {}, { signal }),
  });
  return (
    <Page
      title="Commission rules"
      description="What members earn on a sale: a rule for a product, a brand or a member group wins over the default; the most specific one applies, and between two group rules the older one. A change applies to sales paid after it, never to commissions already recorded."
    >
      {programme.isPending ? <Loading label="Loading the rules…" /> : null}
      {programme.isError ? (
        <ErrorBanner
          title="The rules could not be loaded"
          message={toApiError(programme.error).message}
          onRetry={() => void programme.refetch()}
          retrying={programme.isFetching}
        />
      ) : null}
      {programme.data ? (
        <>
          <RulesSection programme={programme.data} />
          <GroupsSection programme={programme.data} />
          <AuditSection />
        </>
      ) : null}
    </Page>
  );
}

function RulesSection({ programme }: { programme: Programme }) {
  const { call } = useAuth();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [preview, setPreview] = useState<{ key: string; preview: Preview } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const formId = useId();
  const request = requestOf(draft, programme.version);
  const key = JSON.stringify(request);
  const previewed = preview?.key === key ? preview.preview : null;

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.commissionRules.all });
  const failed = (caught: unknown) => {
    const apiError = toApiError(caught);
    const byField: Record<string, string> = {};
    for (const [path, message] of Object.entries(apiError.fields ?? {})) {
      byField[path.replace(/^rule\./, '').replace(/^rate\..*/, 'amount')] = message;
    }
    setFields(byField);
    setProblem(apiError.message);
    if (apiError.status === 409) void refresh();
  };

  const run = async (what: 'preview' | 'save', body: ChangeRuleRequest, done?: string) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    setFields({});
    setNotice(null);
    try {
      if (what === 'preview') {
        setPreview({ key: JSON.stringify(body), preview: await call('previewCommissionRule', body) });
      } else {
        await call('changeCommissionRule', body);
        setNotice(done ?? 'Saved.');
        setDraft(EMPTY);
        setPreview(null);
        await refresh();
      }
    } catch (caught) {
      failed(caught);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(previewed ? 'save' : 'preview', request, draft.id ? 'The rule is changed.' : 'The rule is added.');
  };
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft((current) => ({ ...current, [name]: event.target.value }));
    setFields((current) => ({ ...current, [name]: '' }));
  };

  const deleting = preview && preview.key.includes('"action":"delete"') ? preview : null;

  return (
    <section className="rules-section" aria-labelledby="rules-title">
      <h2 id="rules-title">Rules</h2>
      {notice ? (
        <p className="rules-notice" role="status">
          {notice}
        </p>
      ) : null}
      <ul className="rules-list">
        {programme.rules.map((rule) => (
          <li key={rule.id} className="card rules-list__item">
            <div>
              <p className="rules-list__for">{capitalise(rule.for)}</p>
              <p className="rules-list__rate">{rule.rateText}</p>
            </div>
            <div className="rules-list__actions">
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => {
                  setDraft(draftOf(rule));
                  setPreview(null);
                  document.getElementById(`${formId}-amount`)?.focus();
                }}
                aria-label={`Change the rule for ${rule.for}`}
              >
                Change
              </button>
              {rule.scope !== 'default' ? (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  disabled={busy}
                  onClick={() => void run('preview', { action: 'delete', version: programme.version, id: rule.id })}
                  aria-label={`Delete the rule for ${rule.for}`}
                >
                  Delete…
                </button>
              ) : null}
            </div>
            {deleting && deleting.key.includes(`"id":"${rule.id}"`) ? (
              <div className="rules-preview" role="status">
                <p>{deleting.preview.summary}</p>
                <button
                  type="button"
                  className="button button--danger button--small"
                  disabled={busy}
                  onClick={() =>
                    void run(
                      'save',
                      { action: 'delete', version: programme.version, id: rule.id },
                      'The rule is deleted.',
                    )
                  }
                >
                  Delete the rule
                </button>
                <button type="button" className="button button--ghost button--small" onClick={() => setPreview(null)}>
                  Keep it
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>

      <form className="card form rules-form" onSubmit={submit} noValidate aria-labelledby={`${formId}-title`}>
        <h3 id={`${formId}-title`}>{draft.id ? 'Change the rule' : 'Add a rule'}</h3>
        {draft.scope === 'default' ? (
          <p className="field__hint">The default rule pays everyone whom no other rule names.</p>
        ) : (
          <div className="field">
            <label className="field__label" htmlFor={`${formId}-scope`}>
              For
            </label>
            <select id={`${formId}-scope`} className="field__input" value={draft.scope} onChange={set('scope')}>
              {SCOPES.map((scope) => (
                <option key={scope.value} value={scope.value}>
                  {scope.label}
                </option>
              ))}
            </select>
          </div>
        )}
        {draft.scope === 'group' ? (
          <div className={fields.value ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor={`${formId}-value`}>
              Group
            </label>
            <select id={`${formId}-value`} className="field__input" value={draft.value} onChange={set('value')}>
              <option value="">Choose a group</option>
              {programme.groups.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </select>
            {fields.value ? <p className="field__error">{fields.value}</p> : null}
          </div>
        ) : draft.scope !== 'default' ? (
          <FormField
            id={`${formId}-value`}
            label={draft.scope === 'product' ? 'Product id' : 'Brand'}
            hint={
              draft.scope === 'product'
                ? 'The id shown on the product in the Catalogue.'
                : 'As the catalogue’s brand column names it.'
            }
            value={draft.value}
            onChange={set('value')}
            error={fields.value}
          />
        ) : null}
        <fieldset className="rules-form__kind">
          <legend className="field__label">Pays</legend>
          <label>
            <input
              type="radio"
              name={`${formId}-kind`}
              value="percent"
              checked={draft.kind === 'percent'}
              onChange={set('kind')}
            />{' '}
            A percentage of the price
          </label>
          <label>
            <input
              type="radio"
              name={`${formId}-kind`}
              value="fixed"
              checked={draft.kind === 'fixed'}
              onChange={set('kind')}
            />{' '}
            A fixed amount per unit
          </label>
        </fieldset>
        <div className="rules-form__amounts">
          <FormField
            id={`${formId}-amount`}
            label={draft.kind === 'percent' ? 'Percentage' : 'Amount per unit ($)'}
            inputMode="decimal"
            value={draft.amount}
            onChange={set('amount')}
            error={fields.amount}
          />
          <FormField
            label="Minimum a sale ($, optional)"
            inputMode="decimal"
            value={draft.min}
            onChange={set('min')}
            error={fields.min}
          />
          <FormField
            label="Maximum a sale ($, optional)"
            inputMode="decimal"
            value={draft.max}
            onChange={set('max')}
            error={fields.max}
          />
        </div>
        {previewed ? (
          <div className="rules-preview" role="status">
            <p>
              <strong>Preview:</strong> {previewed.summary}
            </p>
          </div>
        ) : null}
        {problem ? <ErrorBanner title="Not saved" message={problem} /> : null}
        <div className="rules-form__actions">
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
            {busy ? 'Working…' : previewed ? 'Save the rule' : 'Preview the change'}
          </button>
          {draft.id || draft !== EMPTY ? (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                setDraft(EMPTY);
                setPreview(null);
                setProblem(null);
                setFields({});
              }}
            >
              Cancel
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function GroupsSection({ programme }: { programme: Programme }) {
  const { call } = useAuth();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await call('changeMemberGroup', { action: 'create', name });
      setName('');
      await queryClient.invalidateQueries({ queryKey: queryKeys.commissionRules.all });
    } catch (caught) {
      setProblem(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="rules-section" aria-labelledby="groups-title">
      <h2 id="groups-title">Member groups</h2>
      {programme.groups.length === 0 ? (
        <EmptyState title="No groups yet">Make a group, put members in it, then give it a rule.</EmptyState>
      ) : (
        <ul className="rules-groups">
          {programme.groups.map((group) => (
            <GroupCard key={group.id} group={group} />
          ))}
        </ul>
      )}
      <form className="card form rules-form" onSubmit={create} noValidate aria-label="New member group">
        <FormField
          label="New group’s name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={problem ?? undefined}
        />
        <div className="rules-form__actions">
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
            {busy ? 'Making…' : 'Make the group'}
          </button>
        </div>
      </form>
    </section>
  );
}

function GroupCard({ group }: { group: MemberGroup }) {
  const { call } = useAuth();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const members = useQuery({
    queryKey: queryKeys.commissionRules.members(group.id),
    queryFn: ({ signal }) => call('getGroupMembers', { groupId: group.id, limit: 100 }, { signal }),
  });
  const change = async (body: ChangeGroupRequest) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await call('changeMemberGroup', body);
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: queryKeys.commissionRules.all });
    } catch (caught) {
      setProblem(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };
  const titleId = `group-${group.id}`;
  return (
    <li className="card rules-group" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {group.name}{' '}
        <span className="rules-group__count">
          ({group.memberCount} member{group.memberCount === 1 ? '' : 's'})
        </span>
      </h3>
      {members.isPending ? <Loading label="Loading the members…" /> : null}
      {members.data && members.data.items.length === 0 ? (
        <p className="field__hint">Nobody is in this group yet.</p>
      ) : null}
      {members.data && members.data.items.length > 0 ? (
        <ul className="rules-group__members">
          {members.data.items.map((member) => (
            <li key={member.id}>
              <span>{member.email}</span>
              <button
                type="button"
                className="button button--ghost button--small"
                disabled={busy}
                onClick={() => void change({ action: 'remove', groupId: group.id, memberId: member.id })}
                aria-label={`Take ${member.email} out of ${group.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="rules-group__add"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void change({ action: 'add', groupId: group.id, email });
        }}
      >
        <FormField
          label={`Add a member to ${group.name} (e-mail address)`}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={problem ?? undefined}
        />
        <button type="submit" className="button button--small" disabled={busy}>
          Add
        </button>
      </form>
    </li>
  );
}

function AuditSection() {
  const { call } = useAuth();
  const audit = useQuery({
    queryKey: queryKeys.commissionRules.audit(),
    queryFn: ({ signal }) => call('getRuleAudit', { limit: 50 }, { signal }),
  });
  return (
    <section className="rules-section" aria-labelledby="audit-title">
      <h2 id="audit-title">Changes</h2>
      {audit.isPending ? <Loading label="Loading the changes…" /> : null}
      {audit.isError ? (
        <ErrorBanner title="The changes could not be loaded" message={toApiError(audit.error).message} />
      ) : null}
      {audit.data && audit.data.items.length === 0 ? (
        <p className="field__hint">No rule has been changed yet: everyone earns the default.</p>
      ) : null}
      {audit.data && audit.data.items.length > 0 ? (
        <ol className="rules-audit">
          {audit.data.items.map((entry) => (
            <li key={entry.id} className="card rules-audit__entry">
              <p className="rules-audit__head">
                <strong>{entry.action}</strong> by {entry.who}, {formatDate(entry.at)}
              </p>
              {entry.before ? <p>Before: {entry.before}</p> : null}
              {entry.after ? <p>After: {entry.after}</p> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
