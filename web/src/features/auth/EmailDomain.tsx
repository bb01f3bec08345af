import { Skeleton } from 'antd';
import { useAuthConfig } from '../../api/auth';

/**
 * '@company-domain' beside an email prefix. Until auth's config answers it is a placeholder of its
 * size, so the field never shows a bare '@' that then changes.
 */
export function EmailDomain() {
  const { data, isPending } = useAuthConfig();
  if (isPending) return <Skeleton.Input active size="small" className="email-suffix-loading" />;
  const domain = data?.companyEmailDomain;
  return domain ? <span className="email-suffix">{`@${domain}`}</span> : null;
}
