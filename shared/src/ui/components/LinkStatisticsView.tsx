import { useId, useMemo, useState } from 'react';
import type { DailyCounts, LinkStatistics } from '../../api/visits';
import { formatCount, formatMoney } from '../../domain/format';
import '../styles/linkStatistics.css';

/**
 * Link statistics as members and admins see them (issue 39): the totals of 90 days, a bar chart by
 * day of one measure (plain SVG, docs/decisions/0441), the same days as a table for screen readers
 * and keyboards, and for the admin the funnel. One product or all of them.
 */

export type Measure = 'visits' | 'sales' | 'conversion' | 'earnings';

const MEASURES: { id: Measure; label: string }[] = [
  { id: 'visits', label: 'Visits' },
  { id: 'sales', label: 'Sales' },
  { id: 'conversion', label: 'Conversion' },
  { id: 'earnings', label: 'Earnings' },
];

const sumOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);
/** Sales per visit in per cent, one decimal; 0 without visits. */
const conversion = (sales: number, visits: number) => (visits > 0 ? Math.round((sales / visits) * 1000) / 10 : 0);
const percent = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;

/** One value per day of the measure. */
function valuesOf(counts: DailyCounts, measure: Measure): number[] {
  if (measure === 'visits') return counts.visits;
  if (measure === 'sales') return counts.sales;
  if (measure === 'earnings') return counts.earningsCents;
  return counts.visits.map((visits, day) => conversion(counts.sales[day] ?? 0, visits));
}

function formatted(measure: Measure, value: number): string {
  if (measure === 'earnings') return formatMoney(value);
  if (measure === 'conversion') return percent(value);
  return formatCount(value);
}

/** "Nov 3" from `2026-11-03` (UTC, as the days are). */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function LinkStatisticsView({
  statistics,
  showFunnel = false,
  earningsLabel = 'Earnings',
}: {
  statistics: LinkStatistics;
  /** The admin's funnel from counted visits (visits → checkouts started → paid), and the sales without one. */
  showFunnel?: boolean;
  /** What the commissions are called for this reader ("Your earnings", "Commissions"). */
  earningsLabel?: string;
}) {
  const ids = useId();
  const [productId, setProductId] = useState('');
  const [measure, setMeasure] = useState<Measure>('visits');
  const chosen = statistics.products.find((item) => item.productId === productId);
  const counts = chosen?.counts ?? statistics.total;
  const totals = useMemo(
    () => ({
      visits: sumOf(counts.visits),
      checkouts: sumOf(counts.checkouts),
      sales: sumOf(counts.sales),
      paid: sumOf(counts.paid),
      earnings: sumOf(counts.earningsCents),
    }),
    [counts],
  );
  const values = valuesOf(counts, measure);
  const label = (id: Measure) => (id === 'earnings' ? earningsLabel : MEASURES.find((item) => item.id === id)!.label);
  const { days } = statistics;
  const showProducts = statistics.products.length > 1 || (statistics.products.length === 1 && !showFunnel);

  return (
    <div className="link-stats" data-testid="link-statistics">
      <div className="link-stats__controls">
        {showProducts ? (
          <div className="field link-stats__product">
            <label className="field__label" htmlFor={`${ids}-product`}>
              Product
            </label>
            <select
              id={`${ids}-product`}
              className="field__input"
              value={productId}
              onChange={(event) => setProductId(event.target.value)}
            >
              <option value="">All products</option>
              {statistics.products.map((item) => (
                <option key={item.productId} value={item.productId}>
                  {item.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <fieldset className="link-stats__measures">
          <legend className="field__label">Show by day</legend>
          {MEASURES.map((item) => (
            <label key={item.id} className="link-stats__measure">
              <input
                type="radio"
                name={`${ids}-measure`}
                value={item.id}
                checked={measure === item.id}
                onChange={() => setMeasure(item.id)}
              />
              {label(item.id)}
            </label>
          ))}
        </fieldset>
      </div>

      <dl className="link-stats__totals" aria-label="The last 90 days">
        <Total label="Visits" value={formatCount(totals.visits)} />
        <Total label="Sales" value={formatCount(totals.sales)} />
        <Total label="Conversion" value={percent(conversion(totals.sales, totals.visits))} />
        <Total label={earningsLabel} value={formatMoney(totals.earnings)} />
      </dl>

      {showFunnel ? (
        <Funnel visits={totals.visits} checkouts={totals.checkouts} paid={totals.paid} sales={totals.sales} />
      ) : null}

      <DailyBars
        days={days}
        values={values}
        title={`${label(measure)} by day, ${shortDay(days[0]!)} to ${shortDay(days[days.length - 1]!)}${chosen ? `: ${chosen.name}` : ''}`}
        format={(value) => formatted(measure, value)}
      />

      <details className="link-stats__table">
        <summary>Show the days as a table</summary>
        <div className="link-stats__scroll" tabIndex={0} role="region" aria-label="The days as a table">
          <table>
            <caption className="visually-hidden">Visits, sales, conversion and earnings by day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Visits</th>
                <th scope="col">Sales</th>
                <th scope="col">Conversion</th>
                <th scope="col">{earningsLabel}</th>
              </tr>
            </thead>
            <tbody>
              {days
                .map((day, at) => ({ day, at }))
                .reverse()
                .map(({ day, at }) => (
                  <tr key={day}>
                    <th scope="row">{day}</th>
                    <td>{formatCount(counts.visits[at] ?? 0)}</td>
                    <td>{formatCount(counts.sales[at] ?? 0)}</td>
                    <td>{percent(conversion(counts.sales[at] ?? 0, counts.visits[at] ?? 0))}</td>
                    <td>{formatMoney(counts.earningsCents[at] ?? 0)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div className="link-stats__total">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * Visits → checkouts started → paid, every step counted from a counted visit only (a checkout or a
 * payment whose visit was counted), each step's share of the visits in words and as a bar. "Sales"
 * above counts every sale; the ones that came without a counted visit (a browser whose script did
 * not run, an admin's order, a visit older than its payment's 30 days) are said on a line of their
 * own, so the two figures add up: paid after a visit + without a counted visit = sales.
 */
function Funnel({
  visits,
  checkouts,
  paid,
  sales,
}: {
  visits: number;
  checkouts: number;
  paid: number;
  sales: number;
}) {
  const steps = [
    { label: 'Visits', value: visits },
    { label: 'Checkouts started from a visit', value: checkouts },
    { label: 'Paid after a visit', value: paid },
  ];
  const withoutVisit = Math.max(0, sales - paid);
  return (
    <section className="link-stats__funnel" aria-label="Funnel">
      <h3 className="link-stats__heading">Funnel from counted visits</h3>
      <ol className="plain-list">
        {steps.map((step) => {
          const share = visits > 0 ? (step.value / visits) * 100 : 0;
          return (
            <li key={step.label} className="link-stats__step">
              <span className="link-stats__step-label">{step.label}</span>
              <span className="link-stats__step-bar" aria-hidden="true">
                <span style={{ width: `${Math.max(share, step.value > 0 ? 1 : 0)}%` }} />
              </span>
              <span className="link-stats__step-value">
                {formatCount(step.value)} ({percent(Math.round(share * 10) / 10)})
              </span>
            </li>
          );
        })}
      </ol>
      <p className="link-stats__outside">
        Sales without a counted visit: {formatCount(withoutVisit)} of {formatCount(sales)} sale
        {sales === 1 ? '' : 's'} (not in the funnel: an admin&rsquo;s order, or a buyer whose visit was not counted).
      </p>
    </section>
  );
}

const WIDTH = 900;
const HEIGHT = 180;

/**
 * One bar per day in an SVG that scales to its box (390 px phones to desktops). Its words are its
 * name (the title) and a description (the total, the busiest day); the table above is the same
 * data for whoever reads it rather than looks at it.
 */
function DailyBars({
  days,
  values,
  title,
  format,
}: {
  days: readonly string[];
  values: readonly number[];
  title: string;
  format: (value: number) => string;
}) {
  const ids = useId();
  const max = Math.max(0, ...values);
  const busiest = values.indexOf(max);
  const description =
    max > 0
      ? `Highest ${format(max)} on ${shortDay(days[busiest]!)}; ${values.filter((value) => value > 0).length} of ${days.length} days above zero.`
      : 'Nothing yet on any day.';
  const step = WIDTH / days.length;
  return (
    <figure className="link-stats__chart">
      <figcaption id={`${ids}-title`} className="link-stats__heading">
        {title}
      </figcaption>
      <div className="link-stats__plot">
        <span className="link-stats__max" aria-hidden="true">
          {format(max)}
        </span>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${ids}-title`}
          aria-describedby={`${ids}-desc`}
          data-testid="daily-bars"
        >
          <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="link-stats__axis" />
          {values.map((value, at) =>
            value > 0 ? (
              <rect
                key={days[at]}
                x={at * step + step * 0.15}
                width={step * 0.7}
                y={HEIGHT - (value / max) * (HEIGHT - 4)}
                height={(value / max) * (HEIGHT - 4)}
                className="link-stats__bar"
              >
                <title>{`${days[at]}: ${format(value)}`}</title>
              </rect>
            ) : null,
          )}
        </svg>
        <div className="link-stats__ends" aria-hidden="true">
          <span>{shortDay(days[0]!)}</span>
          <span>{shortDay(days[days.length - 1]!)}</span>
        </div>
      </div>
      <p id={`${ids}-desc`} className="link-stats__desc">
        {description}
      </p>
    </figure>
  );
}
