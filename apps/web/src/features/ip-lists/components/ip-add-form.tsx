import { Button, Flex, Form, Input, Tag, Typography, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERRORS, ROUTES, type TIpList } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useAddIpEntries } from '../api/add-ip-entries';
import { checkIpField, type TIpFieldProblem } from '../utils/check-ip-field';

type TValues = { ip: string; remark?: string };

/** Server refusals that concern the IP field: shown under it as well as toasted. */
/** Refusals about the addresses typed: shown under the field. */
const IP_FIELD_BY_CODE = {
  [ERRORS.IP_FORMAT_INVALID.code]: 'ip',
  [ERRORS.IP_DUPLICATE.code]: 'ip',
  [ERRORS.IP_LIST_FULL.code]: 'ip',
};
/** Preview at most this many normalised entries under the field. */
const PREVIEW_LIMIT = 20;

/**
 * Add form of one list: one or more entries separated by semicolons and a
 * remark, checked as the user types with the contract's parser (the server's
 * own rules), naming the wrong entry.
 */
export function IpAddForm({ list, existingCount }: { list: TIpList; existingCount: number }) {
  const { t } = useTranslation('ip-lists');
  const [form] = Form.useForm<TValues>();
  const ipValue = Form.useWatch('ip', form);
  const mutation = useAddIpEntries(list);
  const listName = t(`listName.${list}`);

  const describeProblem = (problem: TIpFieldProblem): string => {
    switch (problem.kind) {
      case 'required':
        return t('validation.required');
      case 'tooMany':
        return t('validation.tooMany', { listName, max: problem.max, count: problem.count });
      default:
        return t(`validation.${problem.kind}`, { entry: problem.entry });
    }
  };

  const ipRule: FormRule = {
    validator: async (_rule, value: string | undefined) => {
      const { problem } = checkIpField(value, existingCount);
      if (problem) throw new Error(describeProblem(problem));
    },
  };

  const preview = ipValue ? checkIpField(ipValue, existingCount) : null;
  const previewRanges = preview && !preview.problem ? preview.ranges : [];

  const handleFinish = async (values: TValues) => {
    try {
      const { records } = await mutation.mutateAsync({ ip: values.ip, remark: values.remark ?? '' });
      showSuccess(t('add.success', { count: records.length, listName }));
      form.resetFields();
    } catch (error) {
      // A reason about the addresses is shown under the field only; others stay a toast.
      markServerIssues(form, error, ['ip', 'remark'], IP_FIELD_BY_CODE);
    }
  };

  return (
    <Form<TValues>
      form={form}
      name={`${list}-add`}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void handleFinish(values)}
    >
      <Form.Item name="ip" label={t('add.ipLabel')} rules={[ipRule]}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 8 }}
          placeholder={t('add.ipPlaceholder')}
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
        />
      </Form.Item>
      {previewRanges.length > 0 && (
        <Flex gap={4} wrap align="center" style={{ marginTop: -12, marginBottom: 16 }} data-testid={`${list}-preview`}>
          <Typography.Text type="secondary">{t('add.preview', { count: previewRanges.length })}</Typography.Text>
          {previewRanges.slice(0, PREVIEW_LIMIT).map((r) => (
            <Tag key={r.text}>{r.text}</Tag>
          ))}
          {previewRanges.length > PREVIEW_LIMIT && <Typography.Text type="secondary">…</Typography.Text>}
        </Flex>
      )}
      <Form.Item
        name="remark"
        label={t('add.remarkLabel')}
        rules={[zodRule(ROUTES.userWhitelistAdd.input.shape.remark)]}
      >
        <Input placeholder={t('add.remarkPlaceholder')} maxLength={120} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('add.submit')}
      </Button>
    </Form>
  );
}
