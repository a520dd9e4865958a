import { Col, Form, Row, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { zCountryId, type TArea, type TProxyCategory } from '@proxy/contract';
import { useAreaCities } from '../../../entities/areas/area-cities';
import { useAreaCountries } from '../../../entities/areas/area-countries';
import { useAreaStates } from '../../../entities/areas/area-states';
import { zodRule } from '../../../lib/form-rules';
import { getLanguage } from '../../../lib/i18n';

/** Option label of an area: its name in the interface language and how many exits are available. */
function toOptions(areas: TArea[] | undefined, t: (key: string, options?: Record<string, unknown>) => string) {
  const lang = getLanguage();
  return (areas ?? []).map((area) => {
    const name = (lang === 'zh' ? area.name_zh : area.name_en) || area.name || area.id.toUpperCase();
    return { value: area.id, label: t('buy.areaOption', { name, count: area.available }), name };
  });
}

/**
 * Country -> state -> city of the purchase form, from the area lists of the
 * screen's category. Country is required (spec section 5); state and city
 * narrow it ("any" when left empty). Changing a level clears the ones below.
 */
export function AreaCascade(props: { category: TProxyCategory; form: FormInstance }) {
  const { t } = useTranslation('proxies');
  const countryId = Form.useWatch<string | undefined>('country_id', props.form);
  const stateId = Form.useWatch<string | undefined>('state_id', props.form);
  const countries = useAreaCountries(props.category);
  const states = useAreaStates(props.category, countryId);
  const cities = useAreaCities(props.category, countryId, stateId);
  const filterOption = (input: string, option?: { name: string; value: string }) =>
    Boolean(option && (option.name.toLowerCase().includes(input.toLowerCase()) || option.value.includes(input.toLowerCase())));

  return (
    <Row gutter={12}>
      <Col xs={24} sm={8}>
        <Form.Item name="country_id" label={t('buy.country')} required rules={[zodRule(zCountryId)]}>
          <Select
            showSearch={{ filterOption }}
            placeholder={t('buy.countryPlaceholder')}
            loading={countries.isFetching}
            options={toOptions(countries.data, t)}
            notFoundContent={countries.isError ? t('errors.fetchCountries') : undefined}
            onChange={() => props.form.setFieldsValue({ state_id: undefined, city_id: undefined })}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name="state_id" label={t('buy.state')}>
          <Select
            allowClear
            showSearch={{ filterOption }}
            disabled={!countryId}
            placeholder={t('buy.anyState')}
            loading={states.isFetching}
            options={toOptions(states.data, t)}
            notFoundContent={states.isError ? t('errors.fetchStates') : undefined}
            onChange={() => props.form.setFieldsValue({ city_id: undefined })}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name="city_id" label={t('buy.city')}>
          <Select
            allowClear
            showSearch={{ filterOption }}
            disabled={!stateId}
            placeholder={t('buy.anyCity')}
            loading={cities.isFetching}
            options={toOptions(cities.data, t)}
            notFoundContent={cities.isError ? t('errors.fetchCities') : undefined}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
