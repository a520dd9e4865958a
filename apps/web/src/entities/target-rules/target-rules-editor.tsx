import { useState } from 'react';
import { Alert, Button, Flex, Input, Popconfirm, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  parseTargetRules,
  splitTargetRuleLines,
  TARGET_RULE_REASON_MESSAGES,
  TARGET_RULES_MAX,
  validationMessage,
  type TTargetRuleList,
  type TTargetRuleMode,
} from '@proxy/contract';
import { getLanguage } from '../../lib/i18n';
import { showSuccess } from '../../lib/message';
import { dismissTip, getServerIssues } from '../../lib/server-issues';
import type { TTargetRulesInput } from './target-rules-api';

/** A problem of one line (1-based), or of the whole list (line null). */
type TLineProblem = { line: number | null; message: string };

// The contract's parser on the textarea, as the server will run it.
function checkLines(mode: TTargetRuleMode, text: string): { problems: TLineProblem[]; count: number } {
  const lang = getLanguage();
  const { rules, errors } = parseTargetRules(splitTargetRuleLines(text));
  const problems: TLineProblem[] = errors.map((e) => ({
    line: e.index + 1,
    message: validationMessage(TARGET_RULE_REASON_MESSAGES[e.reason], lang),
  }));
  if (errors.length === 0 && mode === 'allow' && rules.length === 0)
    problems.push({ line: null, message: validationMessage('targetRulesAllowEmpty', lang) });
  return { problems, count: rules.length };
}

// A BAD_REQUEST's issues at rules.<index> as line problems.
function serverProblems(error: unknown): TLineProblem[] {
  return getServerIssues(error).map((issue) => {
    const index = /^rules\.(\d+)$/.exec(issue.path)?.[1];
    return { line: index === undefined ? null : Number(index) + 1, message: issue.message };
  });
}

/**
 * One target rule list: deny or allow, one rule per line (domains, "*."
 * for subdomains only, IPv4/IPv6 addresses and CIDR blocks), checked line by
 * line as the user types with the contract's parser. `list` is what is
 * saved (null: none); `onSave(null)` removes it.
 */
export function TargetRulesEditor(props: {
  list: TTargetRuleList | null;
  onSave: (input: TTargetRulesInput | null) => Promise<unknown>;
  isSaving: boolean;
  /** Test ids and form names: "account" or "token". */
  scope: string;
}) {
  const { t } = useTranslation('common');
  const [mode, setMode] = useState<TTargetRuleMode>(props.list?.mode ?? 'deny');
  const [text, setText] = useState(props.list?.rules.join('\n') ?? '');
  const [fromServer, setFromServer] = useState<TLineProblem[]>([]);
  const local = checkLines(mode, text);
  const problems = local.problems.length > 0 ? local.problems : fromServer;

  const save = async (input: TTargetRulesInput | null) => {
    setFromServer([]);
    try {
      await props.onSave(input);
      showSuccess(input ? t('targetRules.saved') : t('targetRules.removed'));
      if (!input) {
        setMode('deny');
        setText('');
      }
    } catch (error) {
      const issues = serverProblems(error);
      if (issues.length > 0) {
        setFromServer(issues);
        dismissTip(error);
      }
    }
  };

  return (
    <Flex vertical gap={12} data-testid={`target-rules-${props.scope}`}>
      <Radio.Group
        value={mode}
        onChange={(e) => {
          setMode(e.target.value as TTargetRuleMode);
          setFromServer([]);
        }}
        optionType="button"
        options={[
          { value: 'deny', label: t('targetRules.mode.deny') },
          { value: 'allow', label: t('targetRules.mode.allow') },
        ]}
      />
      <Typography.Text type="secondary">{t(`targetRules.modeHint.${mode}`)}</Typography.Text>
      <Input.TextArea
        aria-label={t('targetRules.rulesLabel')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setFromServer([]);
        }}
        autoSize={{ minRows: 4, maxRows: 14 }}
        placeholder={t('targetRules.placeholder')}
        spellCheck={false}
        status={problems.length > 0 ? 'error' : undefined}
        style={{ fontFamily: 'monospace' }}
      />
      <Typography.Text type="secondary">
        {t('targetRules.count', { count: local.count, max: TARGET_RULES_MAX })}
      </Typography.Text>
      {problems.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid={`target-rules-${props.scope}-problems`}
          message={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {problems.slice(0, 20).map((p, i) => (
                <li key={i}>
                  {p.line === null ? p.message : t('targetRules.lineProblem', { line: p.line, message: p.message })}
                </li>
              ))}
            </ul>
          }
        />
      )}
      <Flex gap={8}>
        <Button
          type="primary"
          loading={props.isSaving}
          disabled={local.problems.length > 0}
          onClick={() => void save({ mode, rules: splitTargetRuleLines(text) })}
        >
          {t('targetRules.save')}
        </Button>
        {props.list && (
          <Popconfirm
            title={t('targetRules.removeConfirm')}
            // eslint-disable-next-line @typescript-eslint/no-misused-promises -- antd's Popconfirm awaits it (OK spins until it settles), though typed void; it settles its own failures
            onConfirm={() => save(null)}
            okText={t('targetRules.remove')}
            cancelText={t('actions.cancel')}
          >
            <Button danger disabled={props.isSaving}>
              {t('targetRules.remove')}
            </Button>
          </Popconfirm>
        )}
      </Flex>
    </Flex>
  );
}
