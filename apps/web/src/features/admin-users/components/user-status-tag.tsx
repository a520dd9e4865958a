import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** An account's status as a tag. */
export function UserStatusTag(props: { status: 'active' | 'disabled' }) {
  const { t } = useTranslation('admin-users');
  return <Tag color={props.status === 'active' ? 'success' : 'error'}>{t(`status.${props.status}`)}</Tag>;
}
