// The license tag at the bottom of the nav; for admins, when not licensed, it links to the
// license settings (docs/product.md, Shell §2, §4, §8).
import { Tag, Tooltip } from 'antd';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/hooks/useCurrentUser';
import { useLicense } from '../../api/hooks/useLicense';
import { evaluationTag, formatLicenseDate } from '../../features/settings';
import { navStrings } from './strings';

export function NavLicenseTag() {
  const license = useLicense();
  const { isAdmin } = useCurrentUser();

  let tag;
  let tooltip: string | undefined;
  let linked = false;
  if (license.isPending) {
    tag = <Tag>{navStrings.validatingLicense}</Tag>;
  } else if (license.isError) {
    tag = <Tag color="warning">{navStrings.unlicensed}</Tag>;
    tooltip = navStrings.licenseFetchFailed;
    linked = isAdmin;
  } else if (evaluationTag(license.data)) {
    // An evaluation is shown as such, with the time it has left (README.md, License).
    tag = <Tag color="warning">{evaluationTag(license.data)}</Tag>;
    tooltip = navStrings.evaluationUntil(formatLicenseDate(license.data.expiration_ts));
    linked = isAdmin;
  } else if (license.data.state === 'LICENSED') {
    tag = <Tag color="success">{navStrings.licensed}</Tag>;
    tooltip = navStrings.licensedTo(license.data.company_name || navStrings.unlicensedCompany);
  } else if (license.data.state === 'EXPIRED') {
    tag = <Tag color="error">{navStrings.licenseExpired}</Tag>;
    tooltip = isAdmin ? navStrings.licenseAdminHint : navStrings.licenseMemberHint;
    linked = isAdmin;
  } else {
    tag = <Tag color="warning">{navStrings.unlicensed}</Tag>;
    tooltip = isAdmin ? navStrings.licenseAdminHint : navStrings.licenseMemberHint;
    linked = isAdmin;
  }

  const content = (
    <span data-testid="license-tag" style={{ display: 'inline-block' }}>
      {tag}
    </span>
  );
  return (
    <Tooltip title={tooltip} placement="right">
      {linked ? <Link to="/settings/license">{content}</Link> : content}
    </Tooltip>
  );
}
